package imageform

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

func testCtx(t testing.TB) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 100, Height: 30, Theme: th, Styles: th.Styles(false), Keys: keys.Default()}
}

func key(t testing.TB, seq string) tea.KeyPressMsg {
	t.Helper()
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(seq))
	k, ok := ev.(uv.KeyPressEvent)
	if !ok || n != len(seq) {
		t.Fatalf("%q decodes to %T", seq, ev)
	}
	return tea.KeyPressMsg(k)
}

func press(t testing.TB, f *Form, seq string) Result {
	t.Helper()
	res, _ := f.update(key(t, seq))
	return res
}

func typeText(t testing.TB, f *Form, s string) {
	t.Helper()
	for _, r := range s {
		press(t, f, string(r))
	}
}

const (
	esc, enter, tab = "\x1b", "\r", "\t"
	shiftTab        = "\x1b[Z"
	ctrlU, ctrlW    = "\x15", "\x17"
	altB, ctrlE     = "\x1bb", "\x05"
)

func newForm(t testing.TB, ask Ask) *Form {
	t.Helper()
	f := New(testCtx(t), Options{
		Ask:    ask,
		Models: []string{"gpt-image-1", "dall-e-3"},
		Sizes: func(m string) []string {
			if m == "dall-e-3" {
				return []string{"1024x1024", "1792x1024"}
			}
			return nil
		},
	})
	f.SetSize(100, 30)
	return f
}

func plain(s string) string { return ansi.Strip(s) }

func TestSubmit(t *testing.T) {
	f := newForm(t, Ask{Prompt: "a fox", Model: "dall-e-3", Size: "1024x1024", N: 2})
	if res := press(t, f, enter); res != (Result{Action: Submit, Ask: Ask{Prompt: "a fox", Model: "dall-e-3", Size: "1024x1024", N: 2}}) {
		t.Fatalf("enter: %+v", res)
	}
	f = newForm(t, Ask{})
	typeText(t, f, "a lighthouse")
	press(t, f, tab)
	typeText(t, f, "gpt-image-1")
	press(t, f, tab)
	typeText(t, f, "AUTO")
	press(t, f, tab)
	typeText(t, f, "3")
	if res := press(t, f, enter); res != (Result{Action: Submit, Ask: Ask{Prompt: "a lighthouse", Model: "gpt-image-1", Size: "auto", N: 3}}) {
		t.Fatalf("typed: %+v", res)
	}
	if res := press(t, f, esc); res.Action != Close {
		t.Fatalf("esc: %+v", res)
	}
}

// A refusal says what is wrong in the form, focuses the field, and keeps
// everything typed.
func TestRefusals(t *testing.T) {
	cases := []struct {
		ask   Ask
		n     string
		says  string
		field int
	}{
		{Ask{}, "", "describe the image first", fieldPrompt},
		{Ask{Prompt: "x", Size: "big"}, "", "the size is width x height in pixels, like 1024x1024 (or auto), not \"big\"", fieldSize},
		{Ask{Prompt: "x", Size: "10x"}, "", "not \"10x\"", fieldSize},
		{Ask{Prompt: "x"}, "11", "how many must be a number from 1 to 10, not \"11\"", fieldN},
		{Ask{Prompt: "x"}, "two", "not \"two\"", fieldN},
	}
	for _, c := range cases {
		f := newForm(t, c.ask)
		if c.n != "" {
			f.fields[fieldN].SetValue(c.n)
		}
		if res := press(t, f, enter); res.Action != None {
			t.Fatalf("%+v: %+v", c.ask, res)
		}
		if !strings.Contains(f.err, c.says) {
			t.Errorf("%+v: message %q, want %q", c.ask, f.err, c.says)
		}
		if v := plain(f.View()); !strings.Contains(v, f.err[:20]) {
			t.Errorf("%+v: the message is not shown:\n%s", c.ask, v)
		}
		if f.focus != c.field || f.fields[fieldPrompt].Value() != c.ask.Prompt {
			t.Errorf("%+v: focus %d, prompt %q", c.ask, f.focus, f.fields[fieldPrompt].Value())
		}
		// Typing clears the message.
		typeText(t, f, "z")
		if f.err != "" {
			t.Errorf("the message stayed after an edit")
		}
	}
}

// Tab and shift+tab (and down and up) move between the fields; the
// fields have the readline keys of ui/lineedit; a paste is one line.
func TestFieldsAndKeys(t *testing.T) {
	f := newForm(t, Ask{Prompt: "a red fox in snow"})
	press(t, f, shiftTab)
	if f.focus != fieldN {
		t.Fatalf("shift+tab from the prompt: %d", f.focus)
	}
	press(t, f, "\x1b[B") // down
	if f.focus != fieldPrompt {
		t.Fatalf("down from the last field: %d", f.focus)
	}
	press(t, f, ctrlW)
	press(t, f, altB)
	typeText(t, f, "big ")
	press(t, f, ctrlE)
	typeText(t, f, "!")
	if got := f.fields[fieldPrompt].Value(); got != "a red fox big in !" {
		t.Fatalf("readline keys: %q", got)
	}
	press(t, f, ctrlU)
	f.update(tea.PasteMsg{Content: "two\nlines\x1b[2J"})
	if got := f.fields[fieldPrompt].Value(); got != "two lines[2J" {
		t.Fatalf("paste: %q", got)
	}
	// Only the focused field takes keys.
	if f.fields[fieldModel].Value() != "" {
		t.Fatal("a field without focus changed")
	}
}

// The help under the fields follows the model field.
func TestModelNote(t *testing.T) {
	f := newForm(t, Ask{Prompt: "x", Model: "dall-e-3"})
	if v := plain(f.View()); !strings.Contains(v, "dall-e-3 makes 1024x1024, 1792x1024") {
		t.Fatalf("sizes:\n%s", v)
	}
	press(t, f, tab)
	if v := plain(f.View()); !strings.Contains(v, "can generate: gpt-image-1, dall-e-3") {
		t.Fatalf("models:\n%s", v)
	}
	f = New(testCtx(t), Options{Ask: Ask{}, Models: []string{"evil\x1b]0;x\x07model"}})
	f.SetSize(80, 24)
	press(t, f, tab)
	v := f.View()
	if strings.Contains(v, "\x1b]0") || !strings.Contains(plain(v), "evil␛]0;x␇model") {
		t.Fatalf("a hostile model name:\n%q", v)
	}
}

// The form draws exactly its area (the box centred) at every size, and
// Box places the same box.
func TestExactSize(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {80, 24}, {120, 40}, {20, 6}, {1, 1}, {10, 30}} {
		f := newForm(t, Ask{Prompt: strings.Repeat("a long prompt ", 20)})
		f.SetSize(sz[0], sz[1])
		press(t, f, enter)
		f.fields[fieldN].SetValue("99")
		press(t, f, enter) // an error wraps under the fields
		v := f.View()
		lines := strings.Split(v, "\n")
		if len(lines) != sz[1] {
			t.Fatalf("%v: %d lines", sz, len(lines))
		}
		for i, l := range lines {
			if lipgloss.Width(l) != sz[0] {
				t.Fatalf("%v: line %d is %d cells", sz, i, lipgloss.Width(l))
			}
		}
		box, x, y := f.Box()
		bl := strings.Split(box, "\n")
		if x < 0 || y < 0 || x+lipgloss.Width(bl[0]) > sz[0] || y+len(bl) > sz[1] {
			t.Fatalf("%v: box at %d,%d, %dx%d", sz, x, y, lipgloss.Width(bl[0]), len(bl))
		}
	}
}

func TestViewIsCached(t *testing.T) {
	f := newForm(t, Ask{Prompt: "x"})
	a := f.View()
	if f.View() != a {
		t.Fatal("an unchanged view differs")
	}
	typeText(t, f, "y")
	if f.View() == a {
		t.Fatal("typing did not change the view")
	}
	if !strings.Contains(plain(f.View()), "tab next field") {
		t.Fatalf("no keys in the box:\n%s", plain(f.View()))
	}
}
