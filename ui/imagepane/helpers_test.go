package imagepane

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// testCtx is a dark-theme context with the default keys.
func testCtx(t testing.TB, noColor bool) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 120, Height: 40, Theme: th, Styles: th.Styles(noColor), NoColor: noColor, Keys: keys.Default()}
}

// base is the time the test items are made around.
var base = time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)

// item is a generated image created i minutes after base.
func item(key string, i int) Item {
	return Item{
		Key: key, Origin: Generated, Path: "/home/u/Pictures/parley/" + key + ".png",
		Prompt: "a fox " + key, Model: "gpt-image-1", Size: "1024x1024",
		Width: 1024, Height: 1024, Bytes: 1_234_567, MIME: "image/png",
		Created: base.Add(time.Duration(i) * time.Minute),
	}
}

// many returns n items, "k000" the oldest.
func many(n int) []Item {
	out := make([]Item, n)
	for i := range out {
		out[i] = item(fmt.Sprintf("k%03d", i), i)
	}
	return out
}

// newPane is a pane with fixed folders.
func newPane(t testing.TB, home string) *Pane {
	t.Helper()
	return New(testCtx(t, false), Dirs{Home: home, Work: home, Save: home + "/Pictures"}, true)
}

// press makes the key press a terminal sends for a key name ("a", "esc",
// "ctrl+u", "G").
func press(k string) tea.KeyPressMsg {
	named := map[string]rune{
		"esc": tea.KeyEscape, "enter": tea.KeyEnter, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome,
		"end": tea.KeyEnd, "left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace,
		"delete": tea.KeyDelete,
	}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r + 'a' - 'A', Mod: tea.ModShift, Text: k}
	}
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText presses one key per rune of s.
func typeText(t *testing.T, p *Pane, s string) {
	t.Helper()
	for _, r := range s {
		if a, cmd := handle(p, tea.KeyPressMsg{Code: r, Text: string(r)}); a.kind != "none" || cmd != nil {
			t.Fatalf("typing %q returned %v, %v", r, a, cmd)
		}
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// plain is s without its SGR sequences.
func plain(s string) string { return sgr.ReplaceAllString(s, "") }

// checkFrame fails unless out is exactly h lines of exactly w cells and
// carries no escape sequence other than SGR, no BEL, no other C0 or C1
// control and no bidi override or isolate. (The bidi marks U+200E, U+200F
// and U+061C may pass: termsafe keeps them on purpose, they are ordinary
// in right-to-left text and cannot reorder what follows a line.)
func checkFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("%dx%d: %d lines, want %d", w, h, len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("%dx%d: line %d is %d cells, want %d: %q", w, h, i, got, w, l)
		}
	}
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") {
		t.Fatalf("%dx%d: OSC or BEL in the frame: %q", w, h, out)
	}
	for _, r := range plain(out) {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("%dx%d: raw control %U in the frame: %q", w, h, r, out)
		}
	}
}

func pasteOf(s string) tea.PasteMsg { return tea.PasteMsg{Content: s} }

// outcome is what the pane asked for a key, for comparing: kind is
// "none", "close", "say" or the chosen Action's name; said and savePath
// come with "say" and "save".
type outcome struct {
	kind, said, savePath string
	chosen               Chosen
}

// handle gives the pane a key through its Update, as the chat does, and
// names what it asked.
func handle(p *Pane, msg tea.KeyPressMsg) (outcome, tea.Cmd) {
	cmd, res := p.Update(msg)
	switch r := res.(type) {
	case nil:
		return outcome{kind: "none"}, cmd
	case Closed:
		return outcome{kind: "close"}, cmd
	case Said:
		return outcome{kind: "say", said: r.Text}, cmd
	case Chosen:
		return outcome{kind: r.Action.String(), savePath: r.SavePath, chosen: r}, cmd
	}
	return outcome{kind: fmt.Sprintf("unknown result %T", res)}, cmd
}
