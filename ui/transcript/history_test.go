package transcript

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

// longSession is a conversation of n messages shaped like chat answers.
func longSession(n int) []conversation.Message { return conversationOf(n, 10) }

// TestLongHistoryRendersNearTheWindow: opening a 10,000-message session
// renders the window and what is near it, not every message (issue 14: it
// rendered all of them in the background to learn their heights, 3 s of CPU
// and 50 MB); estimated heights stand for the rest. Jumping to the top
// shows the first message.
func TestLongHistoryRendersNearTheWindow(t *testing.T) {
	msgs := longSession(10_000)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	openBudget, heapBudget := 300*time.Millisecond, uint64(20<<20)
	if raceOn {
		openBudget, heapBudget = 3*time.Second, 60<<20
	}
	tr := newTest(t, 120, 40)
	var opened time.Duration
	peak, _ := peakHeap(func() {
		c0 := threadCPU()
		tr.Reset(msgs)
		settle(t, tr)
		opened = threadCPU() - c0
	})
	t.Logf("opened 10,000 messages: %v of CPU, heap +%d MB, %d messages rendered", opened.Round(time.Millisecond), peak>>20, rendered(tr))
	if n := rendered(tr); n > 100 {
		t.Fatalf("%d messages rendered on opening; only those near the window should be", n)
	}
	if opened > openBudget || peak > heapBudget {
		t.Errorf("opening cost %v of CPU and %d MB (budgets %v, %d MB)", opened, peak>>20, openBudget, heapBudget>>20)
	}
	if !tr.List().AtBottom() || !strings.Contains(strings.Join(plainView(tr), "\n"), lastWords(msgs[len(msgs)-1].Text)) {
		t.Fatalf("the window does not show the end of the last message")
	}
	tr.List().Top()
	settle(t, tr)
	if !slices.ContainsFunc(plainView(tr), func(l string) bool { return strings.Contains(l, firstWords(msgs[0].Text)) }) {
		t.Fatalf("at the top the first message is not shown:\n%s", strings.Join(plainView(tr), "\n"))
	}
	if n := rendered(tr); n > 200 {
		t.Fatalf("%d messages stay rendered after the jump; those far from the window should be dropped", n)
	}
	checkGeometry(t, tr)
}

// TestPageUpThroughHistory: paging up through a long history, a tick
// after each key as the chat runs, costs little per page, never shows a
// blank line where text is, keeps the geometry, ends on the first message
// and keeps only the renderings near the window.
func TestPageUpThroughHistory(t *testing.T) {
	n, perPage := 1_000, 30*time.Millisecond
	if raceOn {
		// Ten times slower: fewer pages, the same paths.
		n, perPage = 300, 300*time.Millisecond
	}
	msgs := longSession(n)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tr := newTest(t, 120, 40)
	tr.Reset(msgs)
	settle(t, tr)
	var worst time.Duration
	pages := 0
	for tr.list.top() > 0 {
		c0 := threadCPU()
		tr.List().PageUp()
		tickRun(tr)
		_ = tr.List().View()
		worst = max(worst, threadCPU()-c0)
		if pages++; pages > 100_000 {
			t.Fatal("PageUp never reaches the top")
		}
		first, off := tr.list.hs.find(tr.list.top())
		for i := first; i < len(tr.list.items) && tr.list.hs.prefix(i) < tr.list.top()+tr.list.h; i++ {
			if !tr.r.fresh(tr.list.items[i]) {
				t.Fatalf("page %d: message %d in the window is not rendered (window from %d+%d)", pages, i, first, off)
			}
		}
	}
	checkGeometry(t, tr)
	t.Logf("%d pages up through %d messages, the slowest %v of CPU, %d messages rendered at the top", pages, n, worst.Round(time.Microsecond), rendered(tr))
	if worst > perPage {
		t.Errorf("a PageUp cost %v of CPU (budget %v)", worst, perPage)
	}
	if !slices.ContainsFunc(plainView(tr), func(l string) bool { return strings.Contains(l, firstWords(msgs[0].Text)) }) {
		t.Fatalf("at the top the first message is not shown")
	}
	if n := rendered(tr); n > 200 {
		t.Fatalf("%d messages stay rendered; those far from the window should be dropped", n)
	}
}

// rendered counts the messages that hold a rendering.
func rendered(tr *Transcript) int {
	n := 0
	for _, it := range tr.list.items {
		if it.rendered() {
			n++
		}
	}
	return n
}

func lastWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[max(len(f)-3, 0):], " ")
}

func firstWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(3, len(f))], " ")
}
