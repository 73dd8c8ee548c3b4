package lineedit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The readline keys the help promises, each sent as the bytes a terminal
// sends for it, starting from "open the pod bay/doors" with the cursor at
// the end (or where the steps put it).
func TestReadlineKeys(t *testing.T) {
	const start = "open the pod bay/doors"
	cases := []struct {
		name  string
		keys  []string // byte sequences; "type:" types the rest
		value string
		pos   int // cursor after the keys, in characters
	}{
		{"ctrl+u deletes to the start", []string{"\x15"}, "", 0},
		{"ctrl+u keeps what is after the cursor", []string{"\x1bb", "\x15"}, "doors", 0},
		{"ctrl+w deletes back to a space or slash", []string{"\x17"}, "open the pod bay/", 17},
		{"ctrl+w twice", []string{"\x17", "\x17"}, "open the pod ", 13},
		{"alt+backspace deletes a word", []string{"\x1b\x7f"}, "open the pod bay/", 17},
		{"alt+backspace over punctuation", []string{"\x1b\x7f", "\x1b\x7f"}, "open the pod ", 13},
		{"ctrl+a goes to the start", []string{"\x01", "type:X"}, "X" + start, 1},
		{"ctrl+e goes to the end", []string{"\x01", "\x05", "type:!"}, start + "!", len(start) + 1},
		{"home and end", []string{"\x1b[H", "type:<", "\x1b[F", "type:>"}, "<" + start + ">", len(start) + 2},
		{"alt+b goes back a word", []string{"\x1bb", "type:X"}, "open the pod bay/Xdoors", 18},
		{"alt+b twice", []string{"\x1bb", "\x1bb", "type:X"}, "open the pod Xbay/doors", 14},
		{"alt+f goes forward a word", []string{"\x01", "\x1bf", "type:X"}, "openX the pod bay/doors", 5},
		{"alt+d deletes the next word", []string{"\x01", "\x1bd"}, " the pod bay/doors", 0},
		{"ctrl+b and ctrl+f move a character", []string{"\x02", "\x02", "\x06", "type:X"}, "open the pod bay/doorXs", 22},
		{"ctrl+k deletes to the end", []string{"\x1bb", "\x0b"}, "open the pod bay/", 17},
		{"ctrl+d deletes the next character", []string{"\x01", "\x04"}, "pen the pod bay/doors", 0},
		{"backspace", []string{"\x7f"}, "open the pod bay/door", 21},
		{"left arrow and typing", []string{"\x1b[D", "type:-"}, "open the pod bay/door-s", 22},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(testCtx(t, false), Options{})
			m.SetValue(start)
			for _, k := range c.keys {
				if s, ok := strings.CutPrefix(k, "type:"); ok {
					typeText(t, &m, s)
					continue
				}
				m.Update(decode(t, k))
			}
			if m.Value() != c.value || m.Position() != c.pos {
				t.Fatalf("value %q at %d, want %q at %d", m.Value(), m.Position(), c.value, c.pos)
			}
		})
	}
}

// The keys decode to what the key map says they are, so the table above
// tests the keys people press.
func TestDecodedKeyNames(t *testing.T) {
	for seq, want := range map[string]string{
		"\x15": "ctrl+u", "\x17": "ctrl+w", "\x01": "ctrl+a", "\x05": "ctrl+e",
		"\x1bb": "alt+b", "\x1bf": "alt+f", "\x1b\x7f": "alt+backspace", "\x1bd": "alt+d",
	} {
		if got := decode(t, seq).Keystroke(); got != want {
			t.Errorf("%q decodes to %q, want %q", seq, got, want)
		}
	}
}

func TestChangedAndIgnoredKeys(t *testing.T) {
	m := New(testCtx(t, false), Options{})
	if !m.Update(decode(t, "a")) || m.Value() != "a" {
		t.Fatalf("typing a: %q", m.Value())
	}
	if m.Update(decode(t, "\x1b[D")) {
		t.Fatal("moving the cursor reported a change of text")
	}
	// Keys that are not editing keys belong to whoever holds the input.
	for _, seq := range []string{"\r", "\x1b", "\t", "\x1b[A", "\x1b[B", "\x16", "\x0e", "\x10", "\x1bx", "\x18"} {
		if m.Update(decode(t, seq)) || m.Value() != "a" {
			t.Fatalf("%q changed the value to %q", seq, m.Value())
		}
	}
	// A blurred input ignores everything.
	m.Blur()
	if m.Update(decode(t, "b")) || m.Value() != "a" {
		t.Fatalf("a blurred input took a key: %q", m.Value())
	}
	m.Focus()
	if !m.Update(decode(t, "b")) || m.Value() != "ba" { // the cursor was moved left
		t.Fatalf("after Focus: %q", m.Value())
	}
}

func TestPasteIsOneCleanLine(t *testing.T) {
	m := New(testCtx(t, false), Options{})
	m.Update(tea.PasteMsg{Content: "be\x1b[2J\r\n\r\nta\u202e\tend\x07\u009b"})
	if got := m.Value(); got != "be[2J ta end" {
		t.Fatalf("paste kept %q", got)
	}
	// Typed text with control characters is cleaned the same way.
	m.Reset()
	m.Update(tea.KeyPressMsg{Code: tea.KeyExtended, Text: "a\x1b]52;c;x\x07b\u202e.png"})
	if got := m.Value(); got != "a]52;c;xb.png" {
		t.Fatalf("typed %q", got)
	}
	// SetValue too.
	m.SetValue("x\ny\x1b")
	if got := m.Value(); got != "x y" {
		t.Fatalf("SetValue kept %q", got)
	}
}

func TestLimit(t *testing.T) {
	m := New(testCtx(t, false), Options{Limit: 5})
	m.Update(tea.PasteMsg{Content: "abcdefgh"})
	typeText(t, &m, "z")
	if m.Value() != "abcde" {
		t.Fatalf("value %q, want the first 5 characters", m.Value())
	}
	d := New(testCtx(t, false), Options{})
	d.Update(tea.PasteMsg{Content: strings.Repeat("x", 10*DefaultLimit)})
	if n := len([]rune(d.Value())); n != DefaultLimit {
		t.Fatalf("default limit: %d characters", n)
	}
}

func TestViewWidthPromptPlaceholder(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		ctx := testCtx(t, noColor)
		m := New(ctx, Options{Prompt: "search: ", Placeholder: "type to filter"})
		for _, w := range []int{1, 5, 12, 40, 80} {
			m.SetWidth(w)
			requireWidth(t, m.View(), w)
		}
		m.SetWidth(40)
		if v := ansi.Strip(m.View()); !strings.HasPrefix(v, "search: type to filter") {
			t.Fatalf("placeholder view %q", v)
		}
		typeText(t, &m, "日本語 and emoji 🎉 and a long tail that scrolls off the edge")
		requireWidth(t, m.View(), 40)
		if v := ansi.Strip(m.View()); !strings.HasPrefix(v, "search: ") || !strings.Contains(v, "edge") {
			t.Fatalf("the end of a long value is not in view: %q", v)
		}
		m.Update(decode(t, "\x01"))
		if v := ansi.Strip(m.View()); !strings.Contains(v, "日本語") {
			t.Fatalf("after ctrl+a the start is not in view: %q", v)
		}
		if noColor && strings.Contains(m.View(), "38;") {
			t.Fatalf("NO_COLOR view has colours: %q", m.View())
		}
		m.SetPrompt("new title: ")
		requireWidth(t, m.View(), 40)
		if v := ansi.Strip(m.View()); !strings.HasPrefix(v, "new title: ") {
			t.Fatalf("prompt not changed: %q", v)
		}
	}
	// A hostile prompt or placeholder is drawn inert.
	m := New(testCtx(t, false), Options{Prompt: "\x1b]0;x\x07> ", Placeholder: "\x1b[2J"})
	m.SetWidth(30)
	if v := m.View(); strings.Contains(v, "\x1b]0") || strings.Contains(v, "\x1b[2J") {
		t.Fatalf("view carries the sequences: %q", v)
	}
}

// The cursor shows as a reversed cell while focused, and not blurred.
func TestCursorFollowsFocus(t *testing.T) {
	m := New(testCtx(t, true), Options{})
	m.SetWidth(10)
	m.SetValue("ab")
	if !strings.Contains(m.View(), "\x1b[7m") {
		t.Fatalf("no reversed cursor while focused: %q", m.View())
	}
	m.Blur()
	if strings.Contains(m.View(), "\x1b[7m") {
		t.Fatalf("a cursor while blurred: %q", m.View())
	}
}

// View is cached until something changes; copies never share a stale
// view.
func TestViewCacheAndCopies(t *testing.T) {
	m := New(testCtx(t, false), Options{})
	m.SetWidth(20)
	m.SetValue("one")
	a := m.View()
	if b := m.View(); a != b {
		t.Fatal("two views of one state differ")
	}
	c := m // a copy edited apart
	typeText(t, &c, "X")
	typeText(t, &m, "Y")
	if !strings.Contains(ansi.Strip(c.View()), "oneX") || !strings.Contains(ansi.Strip(m.View()), "oneY") {
		t.Fatalf("copies mixed up: %q / %q", ansi.Strip(c.View()), ansi.Strip(m.View()))
	}
	// A theme change shows without an edit.
	ctx := testCtx(t, false)
	n := New(ctx, Options{Prompt: "> "})
	n.SetWidth(20)
	before := n.View()
	ctx.Styles = ctx.Theme.Styles(true)
	ctx.NoColor = true
	ctx.StyleGen++
	if after := n.View(); after == before || strings.Contains(after, "38;") {
		t.Fatalf("the view did not follow the theme: %q", after)
	}
}

func BenchmarkView(b *testing.B) {
	m := New(testCtx(b, false), Options{Prompt: "› "})
	m.SetWidth(60)
	m.SetValue("a filter of moderate length")
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = m.View()
		}
	})
	b.Run("after a key", func(b *testing.B) {
		b.ReportAllocs()
		left, right := decode(b, "\x1b[D"), decode(b, "\x1b[C")
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				m.Update(left)
			} else {
				m.Update(right)
			}
			_ = m.View()
		}
	})
}
