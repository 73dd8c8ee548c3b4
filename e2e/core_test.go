package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"parley/api/apitest"
)

// TestSidePaneTwoSizes: the notices pane (f4) sits beside the transcript at
// 100x30 and takes the transcript's place at 40x12; the rest of the screen
// keeps its layout at both sizes.
func TestSidePaneTwoSizes(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30})
	tm.waitText(composerReady)
	tm.send("first question")
	tm.waitText("You said: first question")
	tm.keys("C-y") // a notice: "reply copied" (or why the clipboard failed)
	tm.keys("F4")
	s := tm.waitText("Notices", "You said: first question")
	for _, l := range lines(s) {
		if strings.Contains(l, "You said: first question") {
			i := strings.Index(l, "│")
			if i < 0 || utf8.RuneCountInString(l[:i]) < 50 {
				t.Fatalf("at 100x30 the pane is not beside the transcript: %q\n%s", l, s)
			}
		}
	}
	// An esc while the copy's notice shows (it fades after 3 s) dismisses
	// it and does only that; the next esc selects the last message (the
	// pane stays); esc again gives the keys back to the composer.
	tm.waitFor("the copy's notice", func(s string) bool { return strings.Contains(lastLine(s), "copied") })
	tm.keys("Escape")
	s = tm.waitFor("the notice gone", func(s string) bool { return !strings.Contains(lastLine(s), "copied") })
	if strings.Contains(s, "◀ selected") {
		t.Fatalf("the esc that dismissed the notice also selected a message:\n%s", frame(s))
	}
	tm.keys("Escape")
	tm.waitText("◀ selected")
	tm.keys("Escape")
	tm.waitCheck("the layout at 100x30 with the pane", func(s string) error {
		if !strings.Contains(s, "Notices") {
			return fmt.Errorf("the pane closed")
		}
		if p := layoutProblems(s, 100, 30); len(p) > 0 {
			return fmt.Errorf("%v", p)
		}
		return nil
	})
	tm.must("resize-window", "-t", sessionName, "-x", "40", "-y", "12")
	tm.waitCheck("the pane alone at 40x12", func(s string) error {
		if strings.Contains(s, "You said") || !strings.Contains(s, "Notices") {
			return errNotYet
		}
		if p := layoutProblems(s, 40, 12); len(p) > 0 {
			return fmt.Errorf("%v", p)
		}
		return nil
	})
	tm.keys("Escape")
	tm.waitCheck("the transcript back at 40x12", func(s string) error {
		if strings.Contains(s, "Notices") || !strings.Contains(s, "You said") {
			return errNotYet
		}
		return nil
	})
}

// TestWideEmojiUnderTmux: tmux measures a skin-toned emoji as 4 cells while
// a grapheme-aware layout counts 2. Nothing may be clipped: the words after
// it stay whole and the borders stay in place.
func TestWideEmojiUnderTmux(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "Hi 👋🏽 there, a long enough line to reach the right edge of this eighty column screen for sure"})
	tm := startChat(t, gw)
	tm.send("wave 👋🏽 long")
	s := tm.waitText("for sure", "wave")
	if p := layoutProblems(s, 80, 24); len(p) > 0 {
		t.Fatalf("layout with a wide emoji: %v\n%s", p, s)
	}
	for _, l := range lines(s) {
		if strings.Contains(l, "wave") && !strings.Contains(l, "long") {
			t.Fatalf("the user's line is clipped: %q", l)
		}
	}
	for _, word := range []string{"there,", "eighty", "column"} {
		if !strings.Contains(s, word) {
			t.Fatalf("%q is clipped:\n%s", word, s)
		}
	}
}

// TestTypeAheadEnterSends: keys typed while parley starts (before it takes
// the terminal) end with Enter, which sends instead of adding a newline.
func TestTypeAheadEnterSends(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig})
	tm.send("typed ahead")
	tm.waitText("You said: typed ahead")
	if n := len(chatRequests(gw)); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

// TestFailedTurnNotMerged: a message whose turn failed is not sent again
// inside the next one; the screen says it was left out.
func TestFailedTurnNotMerged(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`})
	tm := startChat(t, gw)
	tm.send("what is 2+2")
	tm.waitText("401")
	tm.send("what is 3+3")
	tm.waitText("You said: what is 3+3", "not sent again")
	reqs := chatRequests(gw)
	last := reqs[len(reqs)-1]
	for _, m := range last.Chat.Messages {
		if strings.Contains(m.Content.PlainText(), "2+2") {
			t.Fatalf("the failed message went out again: %s", last.Body)
		}
	}
}

// TestStallHintAndScrollMarker: a reply that goes quiet says so after 15 s
// (and how to stop it); scrolled up, the status says the view is not at the
// bottom, also once the reply is over.
func TestStallHintAndScrollMarker(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	var long strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&long, "Line %d of a long answer.\n\n", i)
	}
	gw.Enqueue(apitest.Reply{Deltas: []string{"Thinking about it.\n\n", long.String()}, StallAfterDeltas: 1, Stall: 17 * time.Second})
	tm := startChat(t, gw)
	tm.send("tell me a lot")
	deadline := time.Now().Add(25 * time.Second)
	for !strings.Contains(tm.screen(), "no data for") {
		if time.Now().After(deadline) {
			t.Fatalf("no stall hint:\n%s", tm.screen())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if s := tm.screen(); !strings.Contains(s, "esc stops") {
		t.Fatalf("the stall hint does not say how to stop:\n%s", s)
	}
	tm.waitText("Line 60 of a long answer.")
	tm.keys("PPage")
	s := tm.waitText("bottom")
	if !strings.Contains(s, "↑") {
		t.Fatalf("no marker that the view is scrolled up:\n%s", s)
	}
	tm.keys("End")
	tm.waitGone("bottom")
}
