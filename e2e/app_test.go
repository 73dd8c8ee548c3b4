package e2e

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
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
			// The first ctrl+c stops a reply still streaming; wait for the
			// end so that it asks to quit instead.
			waitReply(tm, "You said: Hello")
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
	for _, want := range []string{"Composer", "Reply", "ctrl+r", "esc"} {
		if !strings.Contains(s, want) {
			t.Errorf("the help lacks %q:\n%s", want, frame(s))
		}
	}
	// The rest of the groups are further down.
	tm.keys("PageDown")
	if s := tm.waitText("Transcript"); !strings.Contains(s, "page up") {
		t.Errorf("the help's next page lacks the transcript keys:\n%s", frame(s))
	}
	tm.keys("PageUp")
	tm.waitText("retry / regenerate")

	tm.keys("Escape")
	s = tm.waitGone("retry / regenerate")
	if s != before {
		t.Errorf("after closing the help the screen differs from before opening it:\nbefore\n%s\nafter\n%s", frame(before), frame(s))
	}
	// The composer has the keyboard again.
	tm.send("After help")
	tm.waitText("You said: After help")
}

// TestResize shrinks the terminal to the smallest supported size while a
// reply streams, then grows it: the composer, status bar and key hint stay
// at the bottom, every row fits the width, and the reply is wrapped anew
// for each width.
func TestResize(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	reply := "The quick brown fox jumps over the lazy dog and keeps running across the wide green field until the sun sets."
	gw.Enqueue(apitest.Reply{
		Deltas:           []string{reply[:20], reply[20:60], reply[60:]},
		StallAfterDeltas: 1, Stall: time.Second, // the first resize lands mid-stream
	})
	tm := startChat(t, gw)
	tm.send("Tell me about the fox")
	tm.waitText(strings.TrimSpace(reply[:20]), "writing")

	rows := map[int]int{} // reply rows by width
	check := func(w, h int) {
		t.Helper()
		// Right after a resize the screen still shows the old frame, cut
		// by the terminal, until parley draws the new one.
		tm.waitCheck(fmt.Sprintf("the layout at %dx%d", w, h), func(s string) error {
			if !strings.Contains(s, "sets.") || strings.Contains(s, "writing") {
				return errNotYet
			}
			if p := layoutProblems(s, w, h); len(p) > 0 {
				return errors.New(strings.Join(p, "; "))
			}
			// The reply reads the same, whatever the wrapping.
			if got := replyText(s); !strings.HasSuffix(reply, got) || len(got) < 20 {
				return fmt.Errorf("the reply reads %q, want (the end of) %q", got, reply)
			}
			// Wrapped for the new width, word by word, not cut or kept at
			// the old width: as many rows as wrapping at the width less a
			// margin of 2 to 6 columns gives.
			n := replyRows(s)
			if lo, hi := wantRows(reply, w-2), wantRows(reply, w-6); n < lo || n > hi {
				return fmt.Errorf("the reply takes %d rows, want %d–%d", n, lo, hi)
			}
			rows[w] = n
			return nil
		})
	}
	tm.must("resize-window", "-t", sessionName, "-x", "40", "-y", "12")
	check(40, 12)
	tm.must("resize-window", "-t", sessionName, "-x", "100", "-y", "30")
	check(100, 30)
	tm.must("resize-window", "-t", sessionName, "-x", "80", "-y", "24")
	check(80, 24)
	if !(rows[40] > rows[80] && rows[80] >= rows[100]) {
		t.Errorf("the reply takes %v rows by width: not rewrapped", rows)
	}

	// Still usable at the new size.
	tm.send("And now?")
	tm.waitText("You said: And now?")
}

// layoutProblems checks the bottom of the screen from the last row up: the
// key hint, the composer box (three rows, the full width), the status bar;
// one composer box only, and no row wider than the screen.
func layoutProblems(s string, w, h int) []string {
	var p []string
	ls := lines(s)
	if len(ls) != h {
		return []string{fmt.Sprintf("%d rows on a %d-row screen", len(ls), h)}
	}
	hint, bottom, middle, top, status := ls[h-1], ls[h-2], ls[h-3], ls[h-4], ls[h-5]
	if !strings.Contains(hint, "help") {
		p = append(p, fmt.Sprintf("the last row is not the key hint: %q", hint))
	}
	if bottom != "╰"+strings.Repeat("─", w-2)+"╯" || top != "╭"+strings.Repeat("─", w-2)+"╮" {
		p = append(p, fmt.Sprintf("the composer box is not %d wide at the bottom", w))
	}
	if !strings.HasPrefix(middle, "│") || !strings.HasSuffix(middle, "│") || utf8.RuneCountInString(middle) != w {
		p = append(p, fmt.Sprintf("the composer row is cut: %q", middle))
	} else if !strings.Contains(middle, composerReady) {
		p = append(p, fmt.Sprintf("the composer is not ready: %q", middle))
	}
	if !strings.Contains(status, "gpt-4o") {
		p = append(p, fmt.Sprintf("the row above the composer is not the status bar: %q", status))
	}
	if strings.Count(s, "╭") != 1 || strings.Count(s, "╰") != 1 {
		p = append(p, "more than one composer box on screen")
	}
	for i, l := range ls {
		if n := utf8.RuneCountInString(l); n > w {
			p = append(p, fmt.Sprintf("row %d is %d wide", i, n))
		}
	}
	return p
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

// TestCopyReply copies the last reply's Markdown with ctrl+y and its first
// code block with alt+1. With no system clipboard reachable (the test's
// environment has no display), the copy goes out as OSC 52, which tmux
// (set-clipboard on) turns into a paste buffer, and a toast says so.
func TestCopyReply(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	markdown := "Use **fmt**:\n\n```go\nfmt.Println(\"hi\")\n```\n\nThat prints hi."
	gw.Enqueue(apitest.Reply{Text: markdown})
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, SetClipboard: true})
	tm.waitText(composerReady)
	tm.send("How do I print?")
	tm.waitText("That prints hi.")
	if bufs := tm.must("list-buffers"); bufs != "" {
		t.Fatalf("paste buffers before copying: %q", bufs)
	}

	tm.keys("C-y")
	s := tm.waitText("reply copied through the terminal (OSC 52")
	if got := newestBuffer(t, tm, 1); got != markdown {
		t.Errorf("ctrl+y copied %q, want the reply's Markdown %q\n%s", got, markdown, frame(s))
	}

	tm.keys("M-1")
	tm.waitText("code block [1]")
	if got := newestBuffer(t, tm, 2); strings.TrimRight(got, "\n") != `fmt.Println("hi")` {
		t.Errorf("alt+1 copied %q, want the code block", got)
	}
}

// newestBuffer waits until tmux has n paste buffers and returns the newest.
func newestBuffer(t *testing.T, tm *term, n int) string {
	t.Helper()
	var names []string
	waitUntil(t, fmt.Sprintf("%d paste buffers", n), func() bool {
		names = strings.Fields(tm.must("list-buffers", "-F", "#{buffer_name}"))
		return len(names) >= n
	})
	if len(names) != n {
		t.Errorf("%d paste buffers, want %d: %v", len(names), n, names)
	}
	return tm.must("show-buffer", "-b", names[0])
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
