package slash

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"parley/ui/keys"
)

// viewStates renders the list in each state worth pinning.
func viewStates(t *testing.T, noColor bool, w int) map[string]string {
	t.Helper()
	l := NewList(testCtx(t, noColor), testCommands(t))
	l.SetEnv(testEnv())
	h := l.Height(12)
	out := map[string]string{}
	typeInto(t, &l, "/")
	hit(t, &l, "down")
	out["open"] = l.View(w, h)
	typeInto(t, &l, "/mo")
	out["filtered"] = l.View(w, h)
	typeInto(t, &l, "/model g")
	hit(t, &l, "down")
	out["candidates"] = l.View(w, h)
	typeInto(t, &l, "/image fox ")
	out["options"] = l.View(w, h)
	typeInto(t, &l, "/modle")
	out["unknown"] = l.View(w, h)
	typeInto(t, &l, "//etc/hosts")
	out["literal"] = l.View(w, h)
	return out
}

// TestGolden pins the list at 80 and 40 columns in the dark theme (true
// colour) and under NO_COLOR. Run with -update after an intended change.
func TestGolden(t *testing.T) {
	for _, v := range []struct {
		name    string
		noColor bool
		profile colorprofile.Profile
	}{{"dark", false, colorprofile.TrueColor}, {"nocolor", true, colorprofile.Ascii}} {
		for _, w := range []int{80, 40} {
			states := viewStates(t, v.noColor, w)
			for _, name := range []string{"open", "filtered", "candidates", "options", "unknown", "literal"} {
				t.Run(fmt.Sprintf("%s/%s/%d", v.name, name, w), func(t *testing.T) {
					view := states[name]
					requireArea(t, view, w, 11)
					var buf bytes.Buffer
					pw := &colorprofile.Writer{Forward: &buf, Profile: v.profile}
					if _, err := pw.WriteString(view); err != nil {
						t.Fatal(err)
					}
					golden.RequireEqual(t, buf.String())
				})
			}
		}
	}
}

// rowOf returns the plain text of the view's line containing s.
func rowOf(t *testing.T, view, s string) string {
	t.Helper()
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(plain(line), s) {
			return line
		}
	}
	t.Fatalf("no line contains %q:\n%s", s, plain(view))
	return ""
}

func TestViewStructure(t *testing.T) {
	for _, c := range []struct {
		w                int
		themeKey         string // the theme picker's key as shown
		summaryFull      bool
		highlightedFirst string
	}{
		{80, "f3/alt+t", true, "▸ /theme [name]"},
		{40, "f3", true, "▸ /theme [name]"},
	} {
		l := newTestList(t)
		typeInto(t, &l, "/")
		hit(t, &l, "down")
		h := l.Height(24)
		if h != chrome+MaxRows {
			t.Fatalf("Height = %d, want %d", h, chrome+MaxRows)
		}
		view := l.View(c.w, h)
		requireArea(t, view, c.w, h)
		lines := strings.Split(plain(view), "\n")
		if !strings.Contains(lines[0], "Commands") {
			t.Errorf("%d: no title: %q", c.w, lines[0])
		}
		// The highlighted row is marked and drawn in the selection style.
		sel := rowOf(t, view, c.highlightedFirst)
		if !strings.Contains(sel, "\x1b[") || !strings.Contains(sel, "48;") {
			t.Errorf("%d: the highlighted row has no selection background: %q", c.w, sel)
		}
		if other := rowOf(t, view, "/model [name]"); strings.Contains(plain(other), "▸") || strings.Contains(other, "48;") {
			t.Errorf("%d: another row looks highlighted: %q", c.w, other)
		}
		// Keys come from the key map, right-aligned before the border.
		if row := plain(rowOf(t, view, "/theme")); !strings.HasSuffix(strings.TrimRight(row, "│ "), c.themeKey) {
			t.Errorf("%d: theme row %q does not end in %q", c.w, row, c.themeKey)
		}
		if row := plain(rowOf(t, view, "/model")); !strings.Contains(row, "ctrl+o") || !strings.Contains(row, "choose model") {
			t.Errorf("%d: model row %q", c.w, row)
		}
		// A command without a key has an empty key column.
		if row := plain(rowOf(t, view, "/system")); strings.Contains(row, "ctrl+") {
			t.Errorf("%d: system row shows a key: %q", c.w, row)
		}
		if !strings.Contains(lines[len(lines)-2], "tab complete") {
			t.Errorf("%d: hint line = %q", c.w, lines[len(lines)-2])
		}
	}
}

// TestViewFollowsTheKeyMap: a rebound key shows beside its command the
// next time the list opens.
func TestViewFollowsTheKeyMap(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	if !strings.Contains(plain(l.View(80, 11)), "ctrl+o") {
		t.Fatal("no ctrl+o before")
	}
	km, problems := keys.Load(map[string][]string{keys.ModelPicker: {"f7"}})
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	l.ctx.Keys = km
	hit(t, &l, "esc")
	typeInto(t, &l, "/")
	after := plain(l.View(80, 11))
	if strings.Contains(after, "ctrl+o") || !strings.Contains(rowOf(t, after, "/model"), "f7") {
		t.Errorf("the view kept the old key:\n%s", after)
	}
}

func TestViewIsCachedAndFollowsTheTheme(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	a := l.View(80, 11)
	// The same state returns the very string rendered before.
	if b := l.View(80, 11); unsafe.StringData(b) != unsafe.StringData(a) {
		t.Fatal("a second View of the same state rendered again")
	}
	// A different size renders for that size.
	if b := l.View(60, 11); unsafe.StringData(b) == unsafe.StringData(a) {
		t.Fatal("a new size returned the old rendering")
	}
	// A new theme generation renders again.
	l.ctx.Styles = testCtx(t, true).Styles
	l.ctx.StyleGen++
	if c := l.View(80, 11); c == a {
		t.Error("the view did not follow the theme")
	}
	// A copy that moves does not disturb the original's cache.
	cp := l
	cp.Update(press("down"))
	if plain(l.View(80, 11)) == plain(cp.View(80, 11)) {
		t.Error("a moved copy renders like the original")
	}
	if !strings.Contains(plain(rowOf(t, l.View(80, 11), "▸")), "/model") {
		t.Error("the original lost its highlight to the copy")
	}
}

func TestViewScrollsToTheHighlight(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	for range len(l.reg.cmds) {
		hit(t, &l, "down") // to the last command, below the first page
	}
	view := plain(l.View(80, 11))
	if !strings.Contains(view, "▸ /image") || strings.Contains(view, "/model") {
		t.Errorf("the last command is not in view:\n%s", view)
	}
}

func TestViewSmallAreas(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	for _, sz := range [][2]int{{80, 3}, {12, 11}, {16, 4}, {1, 1}, {40, 2}} {
		requireArea(t, l.View(sz[0], sz[1]), sz[0], sz[1])
	}
	if l.View(0, 5) != "" || l.View(5, 0) != "" {
		t.Error("an empty area renders something")
	}
	if h := l.Height(2); h != 2 {
		t.Errorf("Height(2) = %d", h)
	}
	l.Close()
	requireArea(t, l.View(30, 4), 30, 4)
	if strings.TrimSpace(l.View(30, 4)) != "" {
		t.Error("a closed list draws something")
	}
}
