package e2e

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"parley/api/apitest"
)

// TestQuit quits after a turn, with ctrl+q and with ctrl+c pressed twice,
// and checks the exit status and that the terminal is restored.
func TestQuit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		quit func(t *testing.T, tm *term)
	}{
		{"ctrl+q", func(t *testing.T, tm *term) { tm.keys("C-q") }},
		{"ctrl+c twice", func(t *testing.T, tm *term) {
			tm.keys("C-c")
			s := tm.waitText("again to quit")
			if strings.Contains(s, exitedMark) {
				t.Fatalf("one ctrl+c quit parley")
			}
			tm.keys("C-c")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gw := apitest.New(t)
			tm := startChat(t, gw)
			tm.send("Hello")
			tm.waitText("You said: Hello")
			if title := tm.display("#{pane_title}"); !strings.Contains(title, "parley") {
				// Not a failure of quitting, but the title check after exit
				// would prove nothing without it.
				t.Logf("parley did not set a window title (%q)", title)
			}
			tc.quit(t, tm)
			ex := tm.waitExit()
			assertRestored(t, ex, "You said: Hello", composerReady, "╭")
		})
	}
}

// TestHelpOverlay opens the help with F1, checks that it lists the keys by
// group, and closes it with esc, back to the chat with the composer ready.
func TestHelpOverlay(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startChat(t, gw)
	before := tm.screen()

	tm.keys("F1")
	s := tm.waitText("retry / regenerate")
	for _, want := range []string{"Composer", "Reply", "Transcript", "ctrl+r", "esc"} {
		if !strings.Contains(s, want) {
			t.Errorf("the help lacks %q:\n%s", want, frame(s))
		}
	}

	tm.keys("Escape")
	s = tm.waitGone("retry / regenerate")
	if s != before {
		t.Errorf("after closing the help the screen differs from before opening it:\nbefore\n%s\nafter\n%s", frame(before), frame(s))
	}
	// The composer has the keyboard again.
	tm.send("After help")
	tm.waitText("You said: After help")
}

// TestResize shrinks the terminal to the smallest supported size and grows
// it again: the composer, status bar and key hint stay at the bottom,
// every row fits the width, and the reply is wrapped anew.
func TestResize(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	reply := "The quick brown fox jumps over the lazy dog and keeps running across the wide green field until the sun sets."
	gw.Enqueue(apitest.Reply{Text: reply})
	tm := startChat(t, gw)
	tm.send("Tell me about the fox")
	tm.waitText("until the sun sets.")

	var rows []int // reply rows at each size
	check := func(w, h int) {
		t.Helper()
		s := tm.waitFor(fmt.Sprintf("the layout at %dx%d", w, h), func(s string) bool {
			ls := lines(s)
			return len(ls) == h && utf8.RuneCountInString(bottomBorder(ls)) == w && strings.Contains(s, "sets.")
		})
		assertLayout(t, s, w, h)
		// The reply reads the same, whatever the wrapping.
		if got := replyText(s); !strings.HasSuffix(reply, got) || len(got) < 20 {
			t.Errorf("at %dx%d the reply reads %q, want (the end of) %q:\n%s", w, h, got, reply, frame(s))
		}
		// Wrapped for the new width, word by word, not cut or kept at the
		// old width: as many rows as wrapping at the width less a margin
		// of 2 to 6 columns gives.
		n := replyRows(s)
		if lo, hi := wantRows(reply, w-2), wantRows(reply, w-6); n < lo || n > hi {
			t.Errorf("at %dx%d the reply takes %d rows, want %d–%d:\n%s", w, h, n, lo, hi, frame(s))
		}
		rows = append(rows, n)
	}
	check(80, 24)
	tm.must("resize-window", "-t", sessionName, "-x", "40", "-y", "12")
	check(40, 12)
	tm.must("resize-window", "-t", sessionName, "-x", "100", "-y", "30")
	check(100, 30)
	if !(rows[1] > rows[0] && rows[0] >= rows[2]) {
		t.Errorf("the reply takes %v rows at 80, 40 and 100 columns: not rewrapped", rows)
	}

	// Still usable at the new size.
	tm.send("And now?")
	tm.waitText("You said: And now?")
}

// bottomBorder is the composer's bottom border: the row above the key hint.
func bottomBorder(ls []string) string {
	if len(ls) < 2 {
		return ""
	}
	return ls[len(ls)-2]
}

// assertLayout checks the bottom of the screen from the last row up: the
// key hint, the composer box (three rows, the full width), the status bar.
func assertLayout(t *testing.T, s string, w, h int) {
	t.Helper()
	ls := lines(s)
	if len(ls) != h {
		t.Fatalf("%d rows on a %d-row screen:\n%s", len(ls), h, frame(s))
	}
	hint, bottom, middle, top, status := ls[h-1], ls[h-2], ls[h-3], ls[h-4], ls[h-5]
	if !strings.Contains(hint, "help") {
		t.Errorf("the last row is not the key hint: %q\n%s", hint, frame(s))
	}
	box := "─"
	if bottom != "╰"+strings.Repeat(box, w-2)+"╯" || top != "╭"+strings.Repeat(box, w-2)+"╮" {
		t.Errorf("the composer box is not %d wide at the bottom:\n%s", w, frame(s))
	}
	if !strings.HasPrefix(middle, "│") || !strings.HasSuffix(middle, "│") || utf8.RuneCountInString(middle) != w {
		t.Errorf("the composer row is cut: %q\n%s", middle, frame(s))
	}
	if !strings.Contains(middle, composerReady) {
		t.Errorf("the composer is not ready: %q", middle)
	}
	if !strings.Contains(status, "gpt-4o") {
		t.Errorf("the row above the composer is not the status bar: %q\n%s", status, frame(s))
	}
	if strings.Count(s, "╭") != 1 || strings.Count(s, "╰") != 1 {
		t.Errorf("more than one composer box on screen (a stale frame):\n%s", frame(s))
	}
	for i, l := range ls {
		if n := utf8.RuneCountInString(l); n > w {
			t.Errorf("row %d is %d wide on a %d-wide screen: %q", i, n, w, l)
		}
	}
}

// replyRows counts the rows of the reply's text: the indented rows right
// above the status bar's blank line, up to the reply's header.
func replyRows(s string) int {
	n := 0
	for _, l := range replyLines(s) {
		if l != "" {
			n++
		}
	}
	return n
}

// replyText joins the reply's visible rows into one line of text.
func replyText(s string) string {
	return strings.Join(replyLines(s), " ")
}

// replyLines are the rows between the last "gpt-4o" header of the
// transcript and the next blank row, trimmed.
func replyLines(s string) []string {
	ls := lines(s)
	start := -1
	for i, l := range ls {
		if strings.TrimSpace(l) == "gpt-4o" {
			start = i + 1
		}
	}
	if start < 0 {
		return nil
	}
	var out []string
	for _, l := range ls[start:] {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, " ●") {
			break
		}
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// wantRows is how many rows text takes when wrapped word by word at room
// columns.
func wantRows(text string, room int) int {
	rows, col := 1, 0
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		switch {
		case col == 0:
			col = n
		case col+1+n <= room:
			col += 1 + n
		default:
			rows++
			col = n
		}
	}
	return rows
}

// TestFirstRun starts parley with no key, no base URL and no config file:
// the setup screen explains the environment variables and the config file,
// and q or ctrl+c quit cleanly.
func TestFirstRun(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"q", "C-c"} {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			tm := startParley(t, launch{})
			s := tm.waitText("OPENAI_API_KEY", "OPENAI_BASE_URL")
			if !strings.Contains(s, "config.toml") {
				t.Errorf("the setup screen does not name the config file:\n%s", frame(s))
			}
			tm.keys(key)
			ex := tm.waitExit()
			assertRestored(t, ex, "OPENAI_API_KEY")
		})
	}
}
