package imagepane

import (
	"slices"
	"strings"
	"testing"

	"parley/ui/cells"
)

// hostile is text a gateway or a file name could carry to act on the
// terminal: CSI, OSC 52 (clipboard write) ended by BEL and by ST, a bare
// BEL, C1 controls, bidi overrides and isolates, line breaks.
const hostile = "\x1b[2J\x1b]52;c;aGFjaw==\x07\x1b]0;title\x1b\\\x07\u0085\u009b31m\u202eevil\u2066x\u2069\u200f\r\nend"

func hostileItems() []Item {
	return []Item{
		{Key: "h1", Origin: Edited, Path: "/tmp/" + hostile + ".png", Prompt: hostile + " " + strings.Repeat("long words ", 40),
			Model: hostile, Size: hostile, From: "/x/" + hostile, MIME: hostile, Width: 1, Height: 1, Bytes: 1, Created: base},
		{Key: "h2", Origin: Attached, Name: hostile, Created: base.Add(-1)},
		{Key: "h3", Origin: Generated, Path: hostile, Created: base.Add(-2)},
	}
}

// sizes covers wide, narrow, tiny and degenerate panes.
var sizes = [][2]int{
	{120, 40}, {200, 60}, {70, 24}, {69, 24}, {80, 12}, {40, 30}, {30, 10}, {20, 6},
	{10, 4}, {5, 3}, {3, 2}, {1, 1}, {2, 1}, {100, 3}, {100, 2}, {100, 1}, {69, 5}, {70, 4},
}

func TestDrawIsExactlyWByH(t *testing.T) {
	pv := []string{"\x1b[38;2;1;2;3m\x1b[48;2;4;5;6m▀▀▀▀▀▀▀▀\x1b[m", "▄▄▄▄▄▄▄▄"}
	states := []struct {
		name  string
		setup func(p *Pane)
		pv    []string
	}{
		{"empty", func(p *Pane) {}, nil},
		{"200 images, waiting for the preview", func(p *Pane) { p.setItems(many(200)) }, nil},
		{"200 images with a preview", func(p *Pane) { p.setItems(many(200)) }, pv},
		{"a preview too big for the area", func(p *Pane) { p.setItems(many(3)) }, bigPreview(300, 100)},
		{"a preview error", func(p *Pane) {
			p.setItems(many(5))
			p.setPreviewError("k004", "cannot decode: "+hostile)
		}, nil},
		{"the save prompt", func(p *Pane) {
			p.setItems(many(5))
			handle(p, press("s"))
		}, nil},
		{"the save prompt with an error", func(p *Pane) {
			p.setItems(many(5))
			handle(p, press("s"))
			handle(p, press("ctrl+u"))
			handle(p, press("enter"))
		}, nil},
		{"a note", func(p *Pane) {
			p.setItems([]Item{{Key: "p", Name: "pasted"}})
			handle(p, press("o"))
		}, nil},
		{"hostile text", func(p *Pane) { p.setItems(hostileItems()) }, nil},
		{"hostile text, selected lower", func(p *Pane) {
			p.setItems(hostileItems())
			handle(p, press("G"))
		}, nil},
	}
	for _, st := range states {
		for _, focused := range []bool{true, false} {
			p := newPane(t, "/home/u")
			st.setup(p)
			for _, s := range sizes {
				t.Run(st.name, func(t *testing.T) {
					checkFrame(t, p.render(s[0], s[1], st.pv, focused), s[0], s[1])
				})
			}
		}
	}
	p := newPane(t, "/home/u")
	if got := p.render(0, 10, nil, true) + p.render(10, 0, nil, true) + p.render(-1, -1, nil, true); got != "" {
		t.Fatalf("a pane with no cells drew %q", got)
	}
}

func bigPreview(w, h int) []string {
	out := make([]string, h)
	for i := range out {
		out[i] = "\x1b[31m" + strings.Repeat("█", w) + "\x1b[m"
	}
	return out
}

func TestHostileTextNeverRaw(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		p := New(testCtx(t, noColor), Dirs{Home: "/home/u", Work: "/home/u", Save: "/home/u/Pictures"}, true)
		p.setItems(hostileItems())
		// A hostile preview line too: only its SGR may pass.
		pv := []string{"\x1b[31mok\x1b]52;c;eA==\x07\x1b[2J\x1bPq\x1b\\"}
		for i := range 3 {
			for _, s := range [][2]int{{120, 40}, {60, 40}} {
				out := p.render(s[0], s[1], pv, true)
				checkFrame(t, out, s[0], s[1])
				out += p.render(s[0], s[1], nil, true)
				if strings.Contains(plain(out), "\x1b") {
					t.Fatalf("item %d at %dx%d: a raw ESC outside SGR:\n%q", i, s[0], s[1], plain(out))
				}
			}
			handle(p, press("j"))
		}
		// The save prompt over a hostile name, and hostile text pasted
		// into it.
		handle(p, press("g"))
		handle(p, press("s"))
		p.handleMsg(pasteOf(hostile))
		out := p.render(120, 40, nil, true)
		checkFrame(t, out, 120, 40)
		if strings.Contains(plain(out), "\x1b") {
			t.Fatalf("the prompt let a raw ESC through: %q", plain(out))
		}
	}
}

func TestHostileTextIsShownVisibly(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(hostileItems())
	frame := plain(p.render(160, 40, nil, true))
	// The sanitiser shows controls as placeholders: the user sees that
	// the text carried them.
	if !strings.Contains(frame, "␛") || !strings.Contains(frame, "evil") {
		t.Fatalf("the hostile text is not shown with placeholders:\n%s", frame)
	}
}

func TestWideLayout(t *testing.T) {
	p := newPane(t, "/home/u")
	items := many(3)
	items[2].Prompt = "a red fox in deep snow, watercolour, soft morning light, " + strings.Repeat("more words ", 30)
	items[2].Origin = Edited
	items[2].From = "/home/u/Pictures/fox.png"
	p.setItems(items)
	w, h := 120, 40
	x, y, pw, ph := p.previewArea(w, h)
	if x < 30 || y != 1 || x+pw != w || ph < h/2 {
		t.Fatalf("wide preview area %d,%d %dx%d: want right of the list, over half the height", x, y, pw, ph)
	}
	pv := make([]string, ph)
	for i := range pv {
		pv[i] = strings.Repeat("#", pw)
	}
	lines := strings.Split(plain(p.render(w, h, pv, true)), "\n")
	// The preview fills exactly its area.
	for i := range h {
		inArea := i >= y && i < y+ph
		got := strings.Count(lines[i], "#")
		if inArea && (got != pw || !strings.HasSuffix(lines[i], strings.Repeat("#", pw))) || !inArea && got != 0 {
			t.Fatalf("row %d has %d '#' (in the area: %v):\n%s", i, got, inArea, strings.Join(lines, "\n"))
		}
	}
	// The list is on the left, beside the preview.
	if !strings.HasPrefix(lines[1], "▸✎ k002.png") || !strings.Contains(lines[2], "k001.png") || string([]rune(lines[1])[x-2]) != "│" {
		t.Fatalf("the list is not on the left:\n%s", strings.Join(lines, "\n"))
	}
	// The details are on the right, under the preview: origin, the
	// prompt in at most three lines ending with an ellipsis, model and
	// size, pixels and bytes, path, what it was edited from.
	details := strings.Join(lines[y+ph:h-1], "\n")
	for _, want := range []string{"✎ Edited", "a red fox in deep snow", "…", "model gpt-image-1 · size 1024x1024",
		"1024×1024 px · 1.2 MB · image/png", "path ~/Pictures/parley/k002.png", "edited from ~/Pictures/fox.png"} {
		if !strings.Contains(details, want) {
			t.Fatalf("the details lack %q:\n%s", want, details)
		}
	}
	if n := strings.Count(details, "more words"); n == 0 || strings.Count(strings.Join(lines, "\n"), "more words") > 3*8 {
		t.Fatalf("the prompt is not wrapped into a few lines:\n%s", details)
	}
	promptRows := 0
	for _, l := range lines[y+ph : h-1] {
		if strings.Contains(l, "words") || strings.Contains(l, "fox in") {
			promptRows++
		}
	}
	if promptRows < 1 || promptRows > 3 {
		t.Fatalf("the prompt takes %d rows, want 1–3:\n%s", promptRows, details)
	}
	// The hint line lists every key.
	if hint := lines[h-1]; !strings.Contains(hint, "a attach · o open · c copy path · y copy image · s save · e edit · esc back") {
		t.Fatalf("hint %q", hint)
	}
}

func TestNarrowLayout(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(20))
	w, h := 60, 40
	x, y, pw, ph := p.previewArea(w, h)
	if x != 0 || y != 1 || pw != w || ph < 10 {
		t.Fatalf("narrow preview area %d,%d %dx%d: want the whole width on top", x, y, pw, ph)
	}
	lines := strings.Split(plain(p.render(w, h, nil, true)), "\n")
	// Preview on top (a quiet placeholder while it is made), then the
	// details, then the list's heading and the list.
	at := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		t.Fatalf("no %q in\n%s", s, strings.Join(lines, "\n"))
		return -1
	}
	placeholder, details, heading, first := at("…"), at("✦ Generated"), at("── 20 images ─"), at("▸✦ k019.png")
	if !(placeholder > y && placeholder < y+ph && details >= y+ph && heading > details && first == heading+1 && first < h-1) {
		t.Fatalf("not stacked (placeholder %d, details %d, heading %d, list %d):\n%s", placeholder, details, heading, first, strings.Join(lines, "\n"))
	}
	if strings.TrimSpace(lines[placeholder]) != "…" {
		t.Fatalf("the placeholder row is %q", lines[placeholder])
	}
	// The hint fits 60 cells by shortening, and still names every key.
	hint := lines[h-1]
	for _, k := range []string{"a attach", "o open", "c path", "y image", "s save", "e edit", "esc back"} {
		if !strings.Contains(hint, k) {
			t.Fatalf("the narrow hint %q lacks %q", hint, k)
		}
	}
	// Narrower still: the keys that matter most, each with its word, and
	// the help that lists the rest.
	p2 := newPane(t, "/home/u")
	p2.setItems(many(2))
	if hint := strings.Split(plain(p2.render(30, 20, nil, true)), "\n")[19]; strings.TrimSpace(hint) != "a attach · esc back · f1 keys" {
		t.Fatalf("the 30-cell hint %q", hint)
	}
}

// At every width the hint line shows whole "key word" pairs, never a key
// alone: the least used keys are left out first, leaving the pane (esc)
// last, and once one is left out f1 says where they all are.
func TestHintLineKeepsWordsAtEveryWidth(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(2))
	words := map[string]string{"a": "attach", "o": "open", "c": "path", "y": "image", "s": "save", "e": "edit", "esc": "back", "f1": "keys"}
	kept := []string{"esc", "a", "s", "o", "c", "y", "e"} // the pane's keys, kept longest first
	prev := len(kept)
	for w := 80; w >= 12; w-- {
		hint := strings.TrimSpace(strings.Split(plain(p.render(w, 20, nil, true)), "\n")[19])
		var keys []string
		help := false
		// Each key is followed by its words, the last of them its short one.
		tokens := strings.Fields(strings.ReplaceAll(hint, "·", " "))
		for i, tok := range tokens {
			if _, isKey := words[tok]; !isKey {
				continue
			}
			j := i + 1
			for j < len(tokens) && words[tokens[j]] == "" {
				j++
			}
			if j == i+1 || tokens[j-1] != words[tok] {
				t.Fatalf("%d cells: %q has no word in %q", w, tok, hint)
			}
			if tok == "f1" {
				help = true
				continue
			}
			keys = append(keys, tok)
		}
		if len(tokens) == 0 || words[tokens[0]] == "" {
			t.Fatalf("%d cells: the hint %q does not start with a key", w, hint)
		}
		n := len(keys)
		slices.Sort(keys)
		if want := slices.Sorted(slices.Values(kept[:n])); !slices.Equal(keys, want) {
			t.Fatalf("%d cells: the hint %q keeps %v, want the %d most used %v", w, hint, keys, n, want)
		}
		if n > prev {
			t.Fatalf("%d cells: a narrower line shows more keys: %q", w, hint)
		}
		if help != (n < len(kept) && w >= cells.Width(" esc back  f1 keys")) {
			t.Fatalf("%d cells: the hint %q leaves out %d keys, with help %v", w, hint, len(kept)-n, help)
		}
		prev = n
	}
}

func TestPreviewAreaDoesNotMove(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(30))
	for _, s := range sizes {
		x, y, pw, ph := p.previewArea(s[0], s[1])
		if pw < 0 || ph < 0 || x+pw > s[0] || y+ph > s[1] {
			t.Fatalf("%v: the preview area %d,%d %dx%d leaves the pane", s, x, y, pw, ph)
		}
		// Neither the selection nor the save prompt moves it.
		handle(p, press("j"))
		handle(p, press("s"))
		x2, y2, pw2, ph2 := p.previewArea(s[0], s[1])
		handle(p, press("esc"))
		if x2 != x || y2 != y || pw2 != pw || ph2 != ph {
			t.Fatalf("%v: the preview area moved", s)
		}
	}
	empty := newPane(t, "/home/u")
	if x, y, pw, ph := empty.previewArea(120, 40); x|y|pw|ph != 0 {
		t.Fatalf("an empty pane has a preview area %d,%d %dx%d", x, y, pw, ph)
	}
}

func TestPreviewCentredAndError(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(2))
	_, y, pw, ph := p.previewArea(120, 40)
	// A preview smaller than the area (the image's aspect) is centred.
	lines := strings.Split(plain(p.render(120, 40, []string{"AB", "CD"}, true)), "\n")
	row := y + (ph-2)/2
	if !strings.Contains(lines[row], "AB") || !strings.Contains(lines[row+1], "CD") {
		t.Fatalf("the preview is not centred vertically (row %d):\n%s", row, strings.Join(lines, "\n"))
	}
	if i := strings.Index(lines[row], "AB"); i < 40+pw/2-5 {
		t.Fatalf("the preview is not centred horizontally: column %d", i)
	}
	// An error shows for its own image only.
	p.setPreviewError("k001", "This image cannot be shown: its PNG data is damaged.")
	if frame := plain(p.render(120, 40, nil, true)); !strings.Contains(frame, "its PNG data is damaged") {
		t.Fatalf("no error text:\n%s", frame)
	}
	handle(p, press("j"))
	if frame := plain(p.render(120, 40, nil, true)); strings.Contains(frame, "damaged") {
		t.Fatal("the error of another image shows")
	}
	handle(p, press("k"))
	p.setPreviewError("k001", "")
	if frame := plain(p.render(120, 40, nil, true)); strings.Contains(frame, "damaged") {
		t.Fatal("a cleared error still shows")
	}
}

func TestEmptyState(t *testing.T) {
	for _, s := range [][2]int{{120, 40}, {60, 20}} {
		p := newPane(t, "/home/u")
		frame := plain(p.render(s[0], s[1], nil, true))
		flat := strings.Join(strings.Fields(frame), " ")
		if !strings.Contains(flat, "No images yet. /image PROMPT makes one; ctrl+v or /attach adds one.") {
			t.Fatalf("%v: no empty state:\n%s", s, frame)
		}
		lines := strings.Split(frame, "\n")
		if hint := strings.TrimSpace(lines[len(lines)-1]); hint != "esc back" {
			t.Fatalf("%v: the empty pane's hint is %q", s, hint)
		}
	}
	// The paste key named is the one the user bound.
	ctx := testCtx(t, false)
	ctx.Keys.Paste.SetKeys("alt+v")
	p := New(ctx, Dirs{}, true)
	if frame := strings.Join(strings.Fields(plain(p.render(120, 10, nil, true))), " "); !strings.Contains(frame, "alt+v or /attach adds one") {
		t.Fatalf("the empty state does not name the bound paste key:\n%s", frame)
	}
}

func TestFocusShowsInTheList(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(3))
	focused, blurred := p.render(120, 20, nil, true), p.render(120, 20, nil, false)
	if focused == blurred {
		t.Fatal("focus changes nothing in the drawing")
	}
	// The title says it in words too (NO_COLOR and 16 colours show it);
	// nothing else of the text changes.
	if !strings.Contains(plain(focused), "▸ Images") || strings.Contains(plain(blurred), "▸ Images") {
		t.Fatal("the title does not mark the focus")
	}
	f, b := strings.Split(plain(focused), "\n"), strings.Split(plain(blurred), "\n")
	if strings.Join(f[1:len(f)-1], "\n") != strings.Join(b[1:len(b)-1], "\n") {
		t.Fatal("focus changed the text of the list or the details")
	}
}

func TestDrawCachesFollowChanges(t *testing.T) {
	ctx := testCtx(t, false)
	p := New(ctx, Dirs{}, true)
	p.setItems(many(3))
	first := p.render(120, 20, nil, true)
	if again := p.render(120, 20, nil, true); again != first {
		t.Fatal("an unchanged pane drew differently")
	}
	// A new theme generation redraws with the new styles.
	th := ctx.Theme
	ctx.Styles = th.Styles(true)
	ctx.NoColor = true
	ctx.StyleGen++
	if nc := p.render(120, 20, nil, true); nc == first || plain(nc) != plain(first) {
		t.Fatal("a style change was not redrawn (or changed the text)")
	}
	// New items redraw the list and the details.
	items := many(3)
	items[2].Model = "another-model"
	p.setItems(items)
	if frame := plain(p.render(120, 20, nil, true)); !strings.Contains(frame, "another-model") {
		t.Fatalf("new items were not drawn:\n%s", frame)
	}
	// A new preview slice replaces the old one even at the same length.
	a := plain(p.render(120, 20, []string{"AAAA"}, true))
	b := plain(p.render(120, 20, []string{"BBBB"}, true))
	if !strings.Contains(a, "AAAA") || !strings.Contains(b, "BBBB") {
		t.Fatal("the preview cache kept an old rendering")
	}
}

func TestDetailsOfAPastedImage(t *testing.T) {
	cases := []struct {
		it   Item
		want []string
		not  []string
	}{
		{Item{Key: "p", Name: "clipboard 14:02", Bytes: 2048, MIME: "image/png"},
			[]string{"+ Attached", "2.0 KB · image/png", "pasted, not saved yet (s saves a copy)"}, []string{" px", "model ", "path ~"}},
		{Item{Key: "q", Path: "/home/u/shot.png", Width: 800, Height: 600},
			[]string{"800×600 px", "path ~/shot.png"}, []string{"B ·", "pasted", "edited from"}},
	}
	for _, c := range cases {
		p := newPane(t, "/home/u")
		p.setItems([]Item{c.it})
		frame := plain(p.render(120, 30, nil, true))
		for _, w := range c.want {
			if !strings.Contains(frame, w) {
				t.Errorf("%s: no %q in\n%s", c.it.Key, w, frame)
			}
		}
		for _, n := range c.not {
			if strings.Contains(frame, n) {
				t.Errorf("%s: %q should not show in\n%s", c.it.Key, n, frame)
			}
		}
	}
}

// The save prompt's hint leaves out tab first and esc last but one: enter
// saves is what the prompt is for. It has no help (f1 types into it).
func TestPromptHintKeepsWords(t *testing.T) {
	st := newPane(t, "/home/u").ctx.Styles
	for _, c := range []struct {
		w    int
		want string
	}{{60, "tab complete · enter save · esc cancel"}, {30, "enter save · esc cancel"}, {14, "enter save"}} {
		if got := strings.TrimSpace(plain(hintLine(&st, c.w, promptHints, hint{}))); got != c.want {
			t.Errorf("%d cells: %q, want %q", c.w, got, c.want)
		}
	}
}

// The save prompt's error is said whole above the prompt, wrapped, at 30
// and 40 columns: its example path is its advice.
func TestSavePromptErrorIsWhole(t *testing.T) {
	for _, w := range []int{30, 40} {
		p := newPane(t, "/home/u")
		p.setItems(many(1))
		handle(p, press("s"))
		handle(p, press("ctrl+u"))
		handle(p, press("enter"))
		out := p.render(w, 20, nil, true)
		checkFrame(t, out, w, 20)
		want := "Type where to save the copy, for example ~/Pictures/" + p.prompt.name + "."
		if flat := strings.Join(strings.Fields(plain(out)), " "); !strings.Contains(strings.ReplaceAll(flat, " ", ""), strings.ReplaceAll(want, " ", "")) {
			t.Fatalf("%d columns: the error is not whole:\n%s", w, plain(out))
		}
	}
}
