package overlay

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// helpText scrolls through the whole help and returns every line shown.
func helpText(t *testing.T, h Help) string {
	t.Helper()
	var all []string
	h, _ = h.update(press("home"))
	for range 200 {
		all = append(all, strings.Split(plain(h.View()), "\n")...)
		before := h.offset
		h, _ = h.update(press("down"))
		if h.offset == before {
			return strings.Join(all, "\n")
		}
	}
	t.Fatal("help never reached its end")
	return ""
}

func TestHelpShowsCurrentBindings(t *testing.T) {
	m, problems := keys.Load(map[string][]string{"model_picker": {"f9"}, "retry": {"f8"}})
	if len(problems) != 0 {
		t.Fatalf("overrides rejected: %v", problems)
	}
	for _, sz := range [][2]int{{80, 24}, {40, 12}, {160, 50}} {
		ctx := testCtx(t, sz[0], sz[1])
		ctx.Keys = m
		h := NewHelp(ctx, m.Groups())
		h.SetSize(sz[0], sz[1])
		requireArea(t, h.View(), sz[0], sz[1])
		all := helpText(t, h)
		for _, want := range []string{"f9", "choose model", "f8", "retry / regenerate", "Composer", "Reply", "Transcript", "App", "Lists and dialogs", "Lists and text fields", "shift+enter/alt+enter/ctrl+j", "new line", "alt+1…9"} {
			if !strings.Contains(all, want) {
				t.Errorf("%v: help lacks %q:\n%s", sz, want, all)
			}
		}
		for _, gone := range []string{"ctrl+o", "ctrl+r "} {
			if strings.Contains(all, gone) {
				t.Errorf("%v: help still shows the overridden default %q", sz, gone)
			}
		}
		// f9 sits on the same line as its description when there is room.
		if sz[0] >= 80 && !lineHas(all, "f9", "choose model") {
			t.Errorf("%v: key and description not on one line:\n%s", sz, all)
		}
	}
}

func lineHas(text string, parts ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestHelpCloseKeys(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	h := NewHelp(ctx, ctx.Keys.Groups())
	h.SetSize(80, 24)
	closes := func(msg tea.Msg) bool {
		_, act := h.Update(msg)
		_, closed := act.(HelpClosed)
		if act != nil && !closed {
			t.Fatalf("%v: the help asked for %T", msg, act)
		}
		return closed
	}
	for _, k := range []string{"esc", "?", "f1", "q"} {
		if !closes(press(k)) {
			t.Errorf("%s does not close the help", k)
		}
	}
	for _, k := range []string{"a", "enter", "ctrl+o", "down", "pgdown"} {
		if closes(press(k)) {
			t.Errorf("%s closes the help", k)
		}
	}
	if closes(tea.MouseWheelMsg{Button: tea.MouseWheelDown}) {
		t.Error("the wheel closes the help")
	}
	// A help key moved by the config closes it too.
	m, _ := keys.Load(map[string][]string{"help": {"f4"}})
	ctx.Keys = m
	if !closes(press("f4")) {
		t.Error("the configured help key does not close the help")
	}
}

func TestHelpScrolls(t *testing.T) {
	ctx := testCtx(t, 40, 12)
	h := NewHelp(ctx, ctx.Keys.Groups())
	h.SetSize(40, 12)
	v := plain(h.View())
	requireArea(t, h.View(), 40, 12)
	if !strings.Contains(v, "Composer") || strings.Contains(v, "Lists and text fields") {
		t.Fatalf("40x12 opens at the top:\n%s", v)
	}
	if !strings.Contains(v, "scroll") || !strings.Contains(v, "esc close") {
		t.Fatalf("no scroll hint:\n%s", v)
	}
	total := len(h.lines)
	rows := h.bodyRows()
	if total <= rows {
		t.Fatalf("help fits in %d rows at 40x12 (%d lines); the test needs it to scroll", rows, total)
	}
	steps := []struct {
		msg  tea.Msg
		want int
	}{
		{press("down"), 1},
		{press("j"), 2},
		{press("up"), 1},
		{press("k"), 0},
		{press("up"), 0}, // stops at the top
		{press("pgdown"), rows - 1},
		{press("space"), 2 * (rows - 1)},
		{press("pgup"), rows - 1},
		{tea.MouseWheelMsg{Button: tea.MouseWheelDown}, rows + 2},
		{tea.MouseWheelMsg{Button: tea.MouseWheelUp}, rows - 1},
		{press("end"), total - rows},
		{press("down"), total - rows}, // stops at the end
		{press("pgdown"), total - rows},
		{press("home"), 0},
		{press("G"), total - rows},
		{press("g"), 0},
	}
	for i, s := range steps {
		h, _ = h.update(s.msg)
		if h.offset != s.want {
			t.Fatalf("step %d: offset %d, want %d", i, h.offset, s.want)
		}
		requireArea(t, h.View(), 40, 12)
	}
	h, _ = h.update(press("end"))
	v = plain(h.View())
	if !strings.Contains(v, "ctrl+u/ctrl+k") || !strings.Contains(v, "/"+strconv.Itoa(total)) {
		t.Fatalf("the end does not show the last lines:\n%s", v)
	}
	// Growing the area clamps the offset; everything fits at 120x90.
	h.SetSize(120, 90)
	if h.offset != 0 {
		t.Fatalf("offset %d after growing", h.offset)
	}
	v = plain(h.View())
	if strings.Contains(v, "scroll") || !strings.Contains(v, "Composer") || !strings.Contains(v, "Lists and text fields") {
		t.Fatalf("120x90 does not show everything:\n%s", v)
	}
	requireArea(t, h.View(), 120, 90)
}

func TestHelpFollowsTheme(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	h := NewHelp(ctx, ctx.Keys.Groups())
	h.SetSize(80, 24)
	dark := h.View()
	light := themedCtx(t, 80, 24, "light", false)
	*ctx = *light
	ctx.StyleGen++
	if got := h.View(); got == dark || plain(got) != plain(dark) {
		t.Fatal("the help did not take the new theme's colours (or its text changed)")
	}
}

// TestHelpKeyColumnIsOneWidth: at 40x12 every description starts in the
// same column, in every group and whatever the terminal reports (a long
// key stands on its own line, its description in that column below it).
func TestHelpKeyColumnIsOneWidth(t *testing.T) {
	for _, enhanced := range []bool{false, true} {
		ctx := testCtx(t, 40, 12)
		ctx.Keys = ctx.Keys.ForTerminal(enhanced)
		h := NewHelp(ctx, ctx.Keys.Groups())
		h.SetSize(40, 12)
		lines := strings.Split(plain(strings.Join(h.lines, "\n")), "\n")
		cols := map[int][]string{}
		for _, g := range append(ctx.Keys.Groups(), filterGroup()) {
			for _, b := range g.Bindings {
				if !b.Enabled() {
					continue
				}
				k, d := b.Help().Key, strings.Fields(b.Help().Desc)[0]
				col := descColumn(lines, k, d)
				if col < 0 {
					t.Fatalf("enhanced=%v: %q (%s) not found:\n%s", enhanced, k, d, strings.Join(lines, "\n"))
				}
				cols[col] = append(cols[col], g.Title+": "+k)
			}
		}
		if len(cols) != 1 {
			t.Errorf("enhanced=%v: descriptions start in %d columns: %v\n%s", enhanced, len(cols), cols, strings.Join(lines, "\n"))
		}
	}
}

// descColumn returns the column where the description starting with word
// stands next to key (or on the line below, when key stands alone), or -1.
func descColumn(lines []string, key, word string) int {
	for i, l := range lines {
		switch {
		case strings.TrimRight(l, " ") == key && i+1 < len(lines):
			next := lines[i+1]
			if j := strings.Index(next, word); j > 0 && strings.TrimSpace(next[:j]) == "" {
				return len([]rune(next[:j]))
			}
		case strings.HasPrefix(l, key+" "):
			rest := l[len(key):]
			if j := strings.Index(rest, word); j > 0 && strings.TrimSpace(rest[:j]) == "" {
				return len([]rune(l[:len(key)+j]))
			}
		}
	}
	return -1
}
