package ui

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestHostileMarkdownKeepsTheChatResponsive: replies that froze the chat
// (issue 7: 100 nested quotes in 111 bytes froze it for good, esc and
// ctrl+c did nothing; 400 nested lists, 4,000 lines of "```" and 40 KB of
// "*" took seconds per frame and hundreds of megabytes) stream through the
// real model from the fake gateway. While the reply streams the composer
// takes keys, esc stops it, no Update takes long, the allocation stays
// bounded, and the text shows.
func TestHostileMarkdownKeepsTheChatResponsive(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"quotes", strings.Repeat(">", 100) + " deep quote", "deep quote"},
		{"lists", strings.Repeat("- ", 400) + "bottom", "bottom"},
		{"fences", strings.Repeat("```\n", 4000), "[2000]"},
		{"stars", strings.Repeat("*", 40<<10) + "\n\nthe end", "the end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 80, 24)
			// All of the text, then a stall: the stream stays open.
			h.srv.Enqueue(apitest.Reply{Text: c.text, DeltaRunes: 64, StallAfterDeltas: (len(c.text) + 63) / 64})
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			start := time.Now()
			var worst time.Duration
			timed := func(f func()) {
				t0 := time.Now()
				f()
				worst = max(worst, time.Since(t0))
			}
			h.typeText("go")
			h.key("enter")
			deadline := time.Now().Add(60 * time.Second)
			for len(lastReplyMsg(h).Text) < len(c.text) {
				select {
				case msg := <-h.msgs:
					timed(func() { h.deliver(msg) })
				case <-time.After(time.Until(deadline)):
					t.Fatalf("the reply did not arrive; screen:\n%s", h.screen())
				}
			}
			// The chat takes keys while the reply is still open.
			timed(func() { h.typeText("next") })
			if !strings.Contains(h.screen(), "next") {
				t.Fatalf("typed text does not show while the reply streams:\n%s", h.screen())
			}
			timed(func() { h.key("esc") })
			if h.streaming() {
				t.Fatal("esc did not stop the reply")
			}
			// The interrupted reply's final rendering (a background render
			// for a large text) arrives.
			h.wait("the reply's text on screen", func() bool { return strings.Contains(h.screen(), c.want) })
			runtime.ReadMemStats(&m1)
			alloc := m1.TotalAlloc - m0.TotalAlloc
			t.Logf("%d bytes: %v, %d MB, slowest Update %v", len(c.text), time.Since(start).Round(time.Millisecond), alloc>>20, worst)
			// Bounds for a loaded machine and the race detector; a frame
			// is 16 ms, and these replies took seconds to forever.
			if worst > time.Second {
				t.Errorf("an Update took %v", worst)
			}
			if alloc > 500<<20 {
				t.Errorf("allocated %d MB", alloc>>20)
			}
		})
	}
}
