package overlay

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/api"
	"parley/themes"
	"parley/ui/keys"
	"parley/ui/list"
)

func names(ns ...string) []PickerItem {
	items := make([]PickerItem, len(ns))
	for i, n := range ns {
		items[i] = PickerItem{Value: n}
	}
	return items
}

// feed sends msgs to p and returns the last result.
func feed(p Picker, msgs ...tea.Msg) (Picker, PickerResult) {
	var res PickerResult
	for _, m := range msgs {
		p, res = p.update(m)
	}
	return p, res
}

func typed(p Picker, s string) Picker {
	for _, k := range typeKeys(s) {
		p, _ = p.update(k)
	}
	return p
}

// visibleTitles returns the titles of the matching items, best first.
func visibleTitles(p Picker) []string {
	var out []string
	for r := range p.list.Len() {
		it, _ := p.list.Row(r)
		out = append(out, it.item.Title)
	}
	return out
}

func selectedValue(t *testing.T, p Picker) string {
	t.Helper()
	it, ok := p.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return it.Value
}

func TestPickerFilter(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	p := NewPicker(ctx, names("gpt-4o", "gpt-4o-mini", "o3", "llama3.2-vision", "Claude-Opus"), PickerOptions{Title: "Model"})
	p.SetSize(80, 24)

	if got := strings.Join(visibleTitles(p), ","); got != "gpt-4o,gpt-4o-mini,o3,llama3.2-vision,Claude-Opus" {
		t.Fatalf("empty filter lists %s", got)
	}
	cases := []struct{ query, want string }{
		{"4o", "gpt-4o,gpt-4o-mini"},
		{"4O", "gpt-4o,gpt-4o-mini"},                               // case-insensitive
		{"claude", "Claude-Opus"},                                  // case-insensitive the other way
		{"gmini", "gpt-4o-mini"},                                   // subsequence
		{"o", "o3,gpt-4o,gpt-4o-mini,Claude-Opus,llama3.2-vision"}, // earliest substring first, ties in list order
		{"vis lla", "llama3.2-vision"},                             // every term must match
		{"xyz", ""},
	}
	for _, c := range cases {
		q := typed(p, c.query)
		if got := strings.Join(visibleTitles(q), ","); got != c.want {
			t.Errorf("filter %q lists %q, want %q", c.query, got, c.want)
		}
		if q.Query() != c.query {
			t.Errorf("query is %q, want %q", q.Query(), c.query)
		}
	}

	// Substring matches rank before subsequence-only matches.
	p2 := typed(NewPicker(ctx, names("m-i-n-i", "mini"), PickerOptions{}), "mini")
	if got := strings.Join(visibleTitles(p2), ","); got != "mini,m-i-n-i" {
		t.Errorf("ranking: %s", got)
	}
	// The view says there is no match.
	q := typed(p, "xyz")
	q.SetSize(80, 24)
	if v := plain(q.View()); !strings.Contains(v, "nothing matches “xyz”") || !strings.Contains(v, "0/5") {
		t.Errorf("no-match view:\n%s", v)
	}
}

func TestPickerFilterEditing(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	p := NewPicker(ctx, names("alpha", "beta"), PickerOptions{})
	p = typed(p, "gpt-4o mini")
	p, _ = p.update(press("backspace"))
	if p.Query() != "gpt-4o min" {
		t.Fatalf("backspace: %q", p.Query())
	}
	p, _ = p.update(press("ctrl+w"))
	if p.Query() != "gpt-4o " {
		t.Fatalf("ctrl+w: %q", p.Query())
	}
	p, _ = p.update(press("alt+backspace"))
	if p.Query() != "gpt-" {
		t.Fatalf("alt+backspace: %q", p.Query())
	}
	p, _ = p.update(press("ctrl+a"))
	p = typed(p, "x")
	if p.Query() != "xgpt-" {
		t.Fatalf("ctrl+a moves to the start: %q", p.Query())
	}
	p, _ = p.update(press("ctrl+e"))
	p, _ = p.update(press("ctrl+u"))
	if p.Query() != "" {
		t.Fatalf("ctrl+u: %q", p.Query())
	}
	// Ctrl and alt keys that mean nothing here do not type.
	p, _ = p.update(press("ctrl+b"))
	p, _ = p.update(press("alt+x"))
	if p.Query() != "" {
		t.Fatalf("modified keys typed %q", p.Query())
	}
	// Pasted text is one line without control characters.
	p, _ = p.update(tea.PasteMsg{Content: "be\x1b[2J\nta\u202e"})
	if strings.ContainsAny(p.Query(), "\x1b\n\u202e") {
		t.Fatalf("paste kept controls: %q", p.Query())
	}
	if !strings.HasPrefix(p.Query(), "be[2J ta") {
		t.Fatalf("paste: %q", p.Query())
	}
}

func TestPickerMovement(t *testing.T) {
	ctx := testCtx(t, 40, 12)
	items := names("a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b0", "b1")
	p := NewPicker(ctx, items, PickerOptions{})
	p.SetSize(40, 12)
	_, _, rows := p.geometry()
	if rows < 3 || rows >= len(items) {
		t.Fatalf("40x12 shows %d rows of %d; the test needs a list that scrolls", rows, len(items))
	}
	steps := []struct {
		key  string
		want string
	}{
		{"down", "a1"},
		{"ctrl+n", "a2"},
		{"up", "a1"},
		{"ctrl+p", "a0"},
		{"up", "a0"}, // no wrap-around: up on the first row stays there
		{"end", "b1"},
		{"down", "b1"}, // and down on the last
		{"home", "a0"},
		{"end", "b1"},
		{"home", "a0"},
		{"pgdown", items[rows-1].Value}, // a page is the rows shown less one
		{"pgup", "a0"},
		{"pgup", "a0"}, // page steps stop at the ends
		{"end", "b1"},
		{"pgdown", "b1"},
	}
	for i, s := range steps {
		var res PickerResult
		p, res = p.update(press(s.key))
		if got := selectedValue(t, p); got != s.want {
			t.Fatalf("step %d (%s): selected %s, want %s", i, s.key, got, s.want)
		}
		if res.Action != PickerNone {
			t.Fatalf("step %d (%s): action %v, want none (not live)", i, s.key, res.Action)
		}
		// The selected row is always on screen.
		v := plain(p.View())
		if !strings.Contains(v, "▸ "+s.want) {
			t.Fatalf("step %d (%s): %s is not shown selected:\n%s", i, s.key, s.want, v)
		}
		requireArea(t, p.View(), 40, 12)
	}
	// Mouse wheel moves too.
	p, _ = p.update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if got := selectedValue(t, p); got != "b0" {
		t.Fatalf("wheel up: %s", got)
	}
	// Filtering puts the cursor on the best match.
	p = typed(p, "a3")
	if got := selectedValue(t, p); got != "a3" {
		t.Fatalf("after filter: %s", got)
	}
	// Moving in an empty result does nothing and does not crash.
	p = typed(p, "zzz")
	p, _ = feed(p, press("down"), press("up"), press("pgdown"), press("end"))
	if _, ok := p.Selected(); ok {
		t.Fatal("selected something with no matches")
	}
}

func TestPickerChooseAndCancel(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	items := names("gpt-4o", "o3", "llama3")
	items[1].Current = true
	p := NewPicker(ctx, items, PickerOptions{})
	if got := selectedValue(t, p); got != "o3" {
		t.Fatalf("opens on %s, want the current item", got)
	}
	_, res := feed(p, press("down"), press("enter"))
	if res.Action != PickerChoose || res.Item.Value != "llama3" {
		t.Fatalf("enter: %+v", res)
	}
	_, res = feed(p, press("down"), press("esc"))
	if res.Action != PickerCancel || res.Item.Value != "" {
		t.Fatalf("esc in a picker that is not live: %+v", res)
	}
	// Enter with nothing matching chooses nothing.
	_, res = feed(typed(p, "nothing"), press("enter"))
	if res.Action != PickerNone {
		t.Fatalf("enter without a match: %+v", res)
	}
	// Keys the picker does not handle are ignored.
	if _, res = p.update(tea.FocusMsg{}); res.Action != PickerNone {
		t.Fatalf("focus: %+v", res)
	}
}

func TestPickerCustomEntry(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	p := NewPicker(ctx, names("gpt-4o", "gpt-4o-mini"), ModelPickerOptions())
	p = typed(p, "gpt-5")
	if got := visibleTitles(p); len(got) != 1 || got[0] != "gpt-5" {
		t.Fatalf("custom row: %v", got)
	}
	p.SetSize(80, 24)
	if v := plain(p.View()); !strings.Contains(v, "gpt-5  use this model name") {
		t.Fatalf("custom row not shown:\n%s", v)
	}
	_, res := feed(p, press("enter"))
	if res.Action != PickerChoose || res.Item.Value != "gpt-5" || !res.Item.Custom {
		t.Fatalf("enter on custom: %+v", res)
	}
	// An exact title offers no custom row; a partial one keeps it last.
	p = typed(NewPicker(ctx, names("gpt-4o", "gpt-4o-mini"), ModelPickerOptions()), "gpt-4o")
	if got := strings.Join(visibleTitles(p), ","); got != "gpt-4o,gpt-4o-mini" {
		t.Fatalf("exact: %s", got)
	}
	p = typed(NewPicker(ctx, names("gpt-4o", "gpt-4o-mini"), ModelPickerOptions()), "gpt")
	if got := strings.Join(visibleTitles(p), ","); got != "gpt-4o,gpt-4o-mini,gpt" {
		t.Fatalf("partial: %s", got)
	}
}

func testThemes() []themes.Theme {
	return []themes.Theme{
		{Name: "dark", Dark: true, Source: "builtin"},
		{Name: "light", Source: "builtin"},
		{Name: "high-contrast", Dark: true, Source: "builtin"},
		{Name: "solarized-mine", Source: "/home/u/.config/parley/themes/solarized-mine.toml"},
	}
}

func TestThemePickerPreviewAndRestore(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	p := NewThemePicker(ctx, testThemes(), "dark", nil)
	p.SetSize(80, 24)
	if got := selectedValue(t, p); got != "dark" {
		t.Fatalf("opens on %s", got)
	}
	var res PickerResult
	p, res = p.update(press("down"))
	if res.Action != PickerPreview || res.Item.Value != "light" {
		t.Fatalf("down: %+v, want a preview of light", res)
	}
	p, res = p.update(press("down"))
	if res.Action != PickerPreview || res.Item.Value != "high-contrast" {
		t.Fatalf("down: %+v", res)
	}
	// Filtering that moves the selection previews the new item...
	p = typed(p, "sol")
	if got := selectedValue(t, p); got != "solarized-mine" {
		t.Fatalf("filter: %s", got)
	}
	// ...and one that keeps it does not preview again.
	p, res = p.update(typeKeys("a")[0])
	if res.Action != PickerNone {
		t.Fatalf("typing without moving: %+v", res)
	}
	// No match: no preview, nothing to choose.
	p, res = p.update(typeKeys("q")[0])
	if res.Action != PickerNone {
		t.Fatalf("no match: %+v", res)
	}
	// Esc hands back the theme that was current, to undo the previews.
	_, res = p.update(press("esc"))
	if res.Action != PickerCancel || res.Item.Value != "dark" {
		t.Fatalf("esc: %+v, want cancel restoring dark", res)
	}
	// Enter commits the previewed one.
	p2 := NewThemePicker(ctx, testThemes(), "dark", nil)
	p2, _ = p2.update(press("up"))
	_, res = p2.update(press("enter"))
	if res.Action != PickerChoose || res.Item.Value != "auto" {
		t.Fatalf("enter: %+v", res)
	}
	// The rows say what each theme is.
	p2.SetSize(80, 24)
	v := plain(p2.View())
	for _, want := range []string{"auto", "following the terminal", "high-contrast", "dark", "light · solarized-mine.toml", "esc restore"} {
		if !strings.Contains(v, want) {
			t.Errorf("theme picker lacks %q:\n%s", want, v)
		}
	}
}

func testCatalog() *api.Catalog {
	return api.NewCatalog([]api.Model{
		{Name: "gpt-4o", Provider: "openai", Caps: api.Capabilities{Vision: true, StreamUsage: true}, Source: api.SourceConfig},
		{Name: "gpt-image-1", Provider: "openai", Caps: api.Capabilities{ImageGeneration: true, ImageEdit: true}, Source: api.SourceConfig},
		{Name: "dall-e-3", Provider: "openai", Caps: api.Capabilities{ImageGeneration: true}, Source: api.SourceConfig},
		{Name: "llama3.1", Provider: "local", Source: api.SourceConfig},
	})
}

// rowOf finds the rendered line that shows the item title.
func rowWith(t *testing.T, view, title string) string {
	t.Helper()
	for _, l := range strings.Split(plain(view), "\n") {
		if strings.Contains(l, " "+title+" ") {
			return l
		}
	}
	t.Fatalf("no row shows %q:\n%s", title, plain(view))
	return ""
}

func TestModelPickerBadges(t *testing.T) {
	ctx := testCtx(t, 100, 30)
	p := modelPickerOn(ctx, testCatalog(), "gpt-4o", "")
	p.SetSize(100, 30)
	v := p.View()
	want := map[string][]string{
		"gpt-4o":      {"vision", "usage"},
		"gpt-image-1": {"image gen", "image edit"},
		"dall-e-3":    {"image gen"},
		"llama3.1":    {},
	}
	all := []string{"vision", "usage", "image gen", "image edit"}
	for title, ws := range want {
		row := rowWith(t, v, title)
		for _, b := range all {
			has := strings.Contains(row, b)
			wanted := false
			for _, w := range ws {
				wanted = wanted || w == b
			}
			if has != wanted {
				t.Errorf("%s: badge %q shown=%v, want %v: %q", title, b, has, wanted, row)
			}
		}
	}
	// Two providers: each row names its provider; the current model is marked.
	if row := rowWith(t, v, "llama3.1"); !strings.Contains(row, "local") {
		t.Errorf("provider missing: %q", row)
	}
	if row := rowWith(t, v, "gpt-4o"); !strings.Contains(row, "● gpt-4o") || !strings.Contains(row, "openai") {
		t.Errorf("current/provider: %q", row)
	}
	if row := rowWith(t, v, "dall-e-3"); strings.Contains(row, "●") {
		t.Errorf("a model that is not current is marked: %q", row)
	}

	// One provider: no provider names.
	one := api.NewCatalog([]api.Model{{Name: "a", Provider: "x"}, {Name: "b", Provider: "x"}})
	for _, it := range ModelItems(one, "a", "", nil) {
		if it.Detail != "" {
			t.Errorf("single provider shows %q", it.Detail)
		}
	}
}

func TestModelPickerGateway(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	cat := testCatalog()
	p := modelPickerOn(ctx, cat, "gpt-4o", "")
	p.SetSize(80, 24)
	p.SetLoading(ModelsLoading)
	if v := plain(p.View()); !strings.Contains(v, "asking the gateway") {
		t.Fatalf("loading state not shown:\n%s", v)
	}
	p, _ = p.update(press("down")) // on gpt-image-1
	// The gateway answers: new ids are added (sorted, marked), known ones not
	// repeated, the selection stays, the loading line goes.
	p.SetItems(ModelItems(cat, "gpt-4o", "", []string{"zeta-model", "GPT-4O", "gpt-4.1", "llava-13b"}))
	v := plain(p.View())
	if strings.Contains(v, "asking the gateway") {
		t.Fatalf("loading line stays:\n%s", v)
	}
	if got := selectedValue(t, p); got != "gpt-image-1" {
		t.Fatalf("selection moved to %s", got)
	}
	var titles []string
	for _, it := range p.Items() {
		titles = append(titles, it.Value)
	}
	if got := strings.Join(titles, ","); got != "gpt-4o,gpt-image-1,dall-e-3,llama3.1,gpt-4.1,llava-13b,zeta-model" {
		t.Fatalf("items: %s", got)
	}
	if row := rowWith(t, v, "gpt-4.1"); !strings.Contains(row, "gateway") || !strings.Contains(row, "vision") {
		t.Errorf("gateway id with built-in capabilities: %q", row)
	}
	if row := rowWith(t, v, "zeta-model"); strings.Contains(row, "vision") {
		t.Errorf("unknown gateway id got a badge: %q", row)
	}
	// Listing failed: one sanitised line, the list stays usable.
	p.SetError(errors.New("the gateway's model list is not available: 401 \x1b[2J\x1b]0;pwned\x07"))
	v = p.View()
	if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x1b]0") || strings.Contains(v, "\x07") {
		t.Fatalf("error line not sanitised: %q", v)
	}
	if !strings.Contains(plain(v), "not available: 401") || !strings.Contains(plain(v), "␛[2J␛]0;pwned␇") {
		t.Fatalf("error line missing:\n%s", plain(v))
	}
	requireArea(t, v, 80, 24)
	// An error longer than a third of the picker ends with where to read
	// it whole, that pointer whole.
	p.SetError(errors.New(strings.Repeat("the gateway says something long ", 60)))
	if v := plain(p.View()); !strings.Contains(strings.Join(strings.Fields(v), " "), "… f4 or /notices shows all │") || strings.Contains(v, "……") {
		t.Fatalf("long error:\n%s", v)
	}
	_, res := p.update(press("enter"))
	if res.Action != PickerChoose || res.Item.Value != "gpt-image-1" {
		t.Fatalf("choose after error: %+v", res)
	}

	// A current or default model outside the config is still listed.
	items := ModelItems(api.NewCatalog(nil), "gpt-4o", "o3-mini", nil)
	if len(items) != 2 || !items[0].Current || items[1].Detail != "default" {
		t.Fatalf("unconfigured current/default: %+v", items)
	}
	if len(items[0].Badges) == 0 {
		t.Fatalf("built-in capabilities missing for gpt-4o: %+v", items[0])
	}
}

func TestPickerHostileModelIDs(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	evil := "evil\x1b]52;c;aGVsbG8=\x07id"
	bidi := "safe\u202egnp.exe"
	p := NewPicker(ctx, ModelItems(api.NewCatalog(nil), "", "", []string{evil, bidi, "c1\u009bx"}), ModelPickerOptions())
	p.SetSize(80, 24)
	v := p.View()
	for _, bad := range []string{"\x1b]", "\x07", "\u202e", "\u009b"} {
		if strings.Contains(v, bad) {
			t.Fatalf("view contains %q: %q", bad, v)
		}
	}
	pv := plain(v)
	for _, want := range []string{"evil␛]52;c;aGVsbG8=␇id", "safe⟨U+202E⟩gnp.exe", "c1⟨U+009B⟩x"} {
		if !strings.Contains(pv, want) {
			t.Fatalf("placeholder %q missing:\n%s", want, pv)
		}
	}
	// The id itself goes back unchanged (it is what the gateway expects).
	p = typed(p, "evil")
	_, res := p.update(press("enter"))
	if res.Item.Value != evil {
		t.Fatalf("chosen value %q, want the raw id", res.Item.Value)
	}
}

func TestPickerSizesAndTruncation(t *testing.T) {
	long := "a-model-name-that-is-far-too-long-for-any-reasonable-picker-row-at-all"
	cjk := "通义千问模型名称非常长非常长非常长非常长非常长的名字"
	items := []PickerItem{
		{Value: long, Badges: ModelBadges(api.Capabilities{Vision: true, ImageGeneration: true, ImageEdit: true, StreamUsage: true})},
		{Value: cjk, Detail: "本地"},
		{Value: "e\u0301mojì 👩‍💻", Current: true},
	}
	for _, sz := range [][2]int{{80, 24}, {40, 12}, {200, 60}, {24, 8}, {10, 3}, {1, 1}} {
		ctx := testCtx(t, sz[0], sz[1])
		p := NewPicker(ctx, items, ModelPickerOptions())
		p.SetSize(sz[0], sz[1])
		v := p.View()
		requireArea(t, v, sz[0], sz[1])
		box, x, y := p.Box()
		if sz[0] >= 40 {
			bl := strings.Split(box, "\n")
			if x < 0 || y < 0 || x+lipgloss.Width(bl[0]) > sz[0] || y+len(bl) > sz[1] {
				t.Fatalf("%v: box at %d,%d does not fit", sz, x, y)
			}
			// The view is the box placed at x, y.
			vl := strings.Split(v, "\n")
			if plain(vl[y]) != strings.Repeat(" ", x)+plain(bl[0])+strings.Repeat(" ", sz[0]-x-lipgloss.Width(bl[0])) {
				t.Fatalf("%v: view and box disagree:\n%q\n%q", sz, plain(vl[y]), plain(bl[0]))
			}
		}
		if sz[0] <= 80 && sz[0] >= 40 {
			pv := plain(v)
			if strings.Contains(pv, long) || !strings.Contains(pv, "a-model-name-that") || !strings.Contains(pv, "…") {
				t.Fatalf("%v: long name not cut with an ellipsis:\n%s", sz, pv)
			}
		}
	}
	// At 40 columns the badges shorten rather than vanish, and the name
	// keeps at least half the row.
	ctx := testCtx(t, 40, 12)
	p := NewPicker(ctx, items, ModelPickerOptions())
	p.SetSize(40, 12)
	row := rowWith(t, p.View(), "a-model-name-that-…")
	if !strings.Contains(row, "vis") {
		t.Fatalf("40 cols: badges gone: %q", row)
	}
}

func TestPickerRespectsKeyOverrides(t *testing.T) {
	m, problems := keys.Load(map[string][]string{"list_down": {"alt+j"}, "list_up": {"alt+k", "k"}})
	ctx := testCtx(t, 80, 24)
	ctx.Keys = m
	p := NewPicker(ctx, names("one", "two", "kilo"), PickerOptions{})
	p, _ = p.update(press("alt+j"))
	if got := selectedValue(t, p); got != "two" {
		t.Fatalf("alt+j (overridden list_down): %s (problems: %v)", got, problems)
	}
	p, _ = p.update(press("alt+k"))
	if got := selectedValue(t, p); got != "one" {
		t.Fatalf("alt+k: %s", got)
	}
	// The arrows keep working in lists whatever the config says.
	p, _ = p.update(press("down"))
	if got := selectedValue(t, p); got != "two" {
		t.Fatalf("down: %s", got)
	}
	// A printable key bound to a list action still types into the filter.
	p = typed(p, "k")
	if p.Query() != "k" {
		t.Fatalf("typing k: query %q", p.Query())
	}
	if got := selectedValue(t, p); got != "kilo" {
		t.Fatalf("filter k: %s", got)
	}
}

func TestPickerHighlightsMatches(t *testing.T) {
	hit := lipgloss.NewStyle().Underline(true)
	base := lipgloss.NewStyle()
	// A combining mark is never split from its base character.
	hits := []bool{true, false, false}
	if got, want := list.Highlight("e\u0301x", hits, base, hit), hit.Render("e\u0301")+"x"; got != want {
		t.Fatalf("grapheme highlight: %q, want %q", got, want)
	}
	for _, noColor := range []bool{false, true} {
		ctx := themedCtx(t, 80, 24, "dark", noColor)
		p := NewPicker(ctx, names("gpt-4o", "o3"), PickerOptions{})
		p.SetSize(80, 24)
		p = typed(p, "4O")
		lk := lookFor(ctx)
		// On the selected row the match is the selection underlined.
		want := lk.selected.Underline(true).Render("4o")
		if !strings.Contains(p.View(), want) {
			t.Fatalf("noColor=%v: the match is not highlighted (want %q in):\n%q", noColor, want, p.View())
		}
		if noColor && strings.Contains(p.View(), "38;2") {
			t.Fatal("NO_COLOR view has colours")
		}
	}
}

// The gateway's failure is said whole in the model picker, its advice
// last, at 80 columns and at 30 (where the picker is the screen's width).
func TestModelPickerErrorIsWhole(t *testing.T) {
	msg := "the gateway's model list is not available: could not reach http://127.0.0.1:9 (connect: connection refused) after 3 attempts: check the base URL, the network and whether the gateway runs"
	for _, sz := range [][2]int{{80, 19}, {40, 24}, {30, 24}} {
		ctx := testCtx(t, sz[0], sz[1])
		p := modelPickerOn(ctx, testCatalog(), "gpt-4o", "")
		p.SetSize(sz[0], sz[1])
		p.SetError(errors.New(msg))
		v := plain(p.View())
		var text []string
		for _, l := range strings.Split(v, "\n") {
			text = append(text, strings.Trim(l, " │"))
		}
		if flat := strings.Join(strings.Fields(strings.Join(text, " ")), " "); !strings.Contains(flat, msg) {
			t.Fatalf("%v: the error is not whole:\n%s", sz, v)
		}
		requireArea(t, p.View(), sz[0], sz[1])
	}
}
