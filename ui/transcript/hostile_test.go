package transcript

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
)

// Hostile Markdown (issue 7): replies a gateway can send to make glamour's
// cost explode. Each was measured before the fix with the released binary:
// 100 nested quotes in 111 bytes froze the chat for good (exponential in
// the depth), 400 nested list levels allocated 733 MB in 30 s, 4,000 lines
// of "```" froze it for 6 s (a lexer search per empty code block), 40 KB
// of "*" allocated 536 MB (the unfinished block rendered again every
// frame).
func hostileReplies() []hostileReply {
	// 40 KB of "*a" is 10 KB under the race detector, where each render
	// of it takes seconds: the same paths, in a test of sane length.
	pairs := 20 << 10
	if raceOn {
		pairs = 5 << 10
	}
	return []hostileReply{
		{"100 nested quotes", strings.Repeat(">", 100) + " deep quote", "deep quote"},
		{"400 nested lists on one line", strings.Repeat("- ", 400) + "bottom\n", "bottom"},
		{"400 nested lists", nestedList(400), "level 399"},
		{"4000 fence lines", strings.Repeat("```\n", 4000), "[2000]"},
		{"40 KB of stars", strings.Repeat("*", 40<<10), ""},
		{"40 KB of emphasis", strings.Repeat("*a", pairs), "a"},
		{"controls in a deep quote", strings.Repeat("> ", 80) + "\x1b]52;c;ZXZpbA==\x07 \x1b[2J text", "text"},
	}
}

type hostileReply struct {
	name string
	text string
	want string // text that must show, sanitised
}

func nestedList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i))
		b.WriteString("- level ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\n")
	}
	return b.String()
}

// uiLoop plays the root model's part: the test goroutine is the Update
// goroutine (locked to its thread, so its CPU time is measured), commands
// run on goroutines of their own as Bubble Tea runs them, and their
// results come back as messages between frames. It records the most any
// one call on the Update goroutine cost.
type uiLoop struct {
	t       *testing.T
	tr      *Transcript
	results chan tea.Msg
	running int
	worst   time.Duration
	worstAt string
	calls   int
}

func newUILoop(t *testing.T, tr *Transcript) *uiLoop {
	return &uiLoop{t: t, tr: tr, results: make(chan tea.Msg, 16)}
}

// call runs f as one Update and records its cost: the thread's CPU time
// (what a busy machine inflates least), or the wall time where that is not
// measured.
func (u *uiLoop) call(what string, f func()) {
	w0, c0 := time.Now(), threadCPU()
	f()
	cost := threadCPU() - c0
	if c0 == 0 {
		cost = time.Since(w0)
	}
	u.calls++
	if cost > u.worst {
		u.worst, u.worstAt = cost, what
	}
}

func (u *uiLoop) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	u.running++
	go func() { u.results <- cmd() }()
}

// frame is one frame: results that arrived are handled, Tick runs, the
// window is drawn.
func (u *uiLoop) frame() {
	for {
		select {
		case msg := <-u.results:
			u.running--
			u.call("HandleMsg", func() {
				if !u.tr.HandleMsg(msg) {
					u.t.Fatalf("HandleMsg refused the transcript's own result %T", msg)
				}
			})
			continue
		default:
		}
		break
	}
	var cmd tea.Cmd
	u.call("Tick", func() { cmd = u.tr.Tick() })
	u.run(cmd)
	u.call("View", func() { _ = u.tr.List().View() })
}

// finish frames until nothing is left to do, waiting for results, within
// limit.
func (u *uiLoop) finish(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for u.running > 0 || u.tr.NeedsTick() {
		if time.Now().After(deadline) {
			u.t.Fatalf("the transcript did not settle within %v (%d renders running)", limit, u.running)
		}
		if u.running > 0 && !u.tr.NeedsTick() {
			msg := <-u.results
			u.running--
			u.call("HandleMsg", func() { u.tr.HandleMsg(msg) })
			continue
		}
		u.frame()
		time.Sleep(time.Millisecond)
	}
}

// TestHostileMarkdownStaysResponsive streams each hostile reply through the
// transcript the way the chat does (deltas, a frame every three, renders
// run as commands) and checks that no call on the Update goroutine takes
// more than a few frames, that the whole stream and its final rendering
// end in bounded time and allocation, and that the text still shows,
// sanitised, within the width.
func TestHostileMarkdownStaysResponsive(t *testing.T) {
	// Bounds: generous (a loaded machine, the race detector's tenfold
	// slowdown) but orders of magnitude below what these inputs cost
	// before: a frozen Update goroutine, seconds per frame, gigabytes.
	perCall, total, allocLimit := 40*time.Millisecond, 20*time.Second, uint64(400<<20)
	if raceOn {
		// Ten times slower, and it allocates more.
		perCall, total, allocLimit = 400*time.Millisecond, 120*time.Second, 1<<30
	}
	for _, h := range hostileReplies() {
		t.Run(h.name, func(t *testing.T) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			const w = 80
			tr := newTest(t, w, 24)
			tr.Append(userMsg(1, "go"))
			tr.Append(streamingMsg(2))
			u := newUILoop(t, tr)
			// About 250 deltas whatever the size, at most 64 bytes each.
			size := min(max(len(h.text)/250, 8), 64)
			var ms0, ms1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			start := time.Now()
			k := 0
			for i := 0; i < len(h.text); i += size {
				d := h.text[i:min(i+size, len(h.text))]
				u.call("AppendDelta", func() { tr.AppendDelta(2, d) })
				if k++; k%3 == 0 {
					u.frame()
					time.Sleep(time.Millisecond)
				}
				if time.Since(start) > total {
					t.Fatalf("streaming took more than %v", total)
				}
			}
			done := streamingMsg(2)
			done.Text, done.State, done.FinishReason = h.text, conversation.StateDone, "stop"
			u.call("Update", func() { tr.Update(done) })
			u.finish(total - time.Since(start))
			elapsed := time.Since(start)
			runtime.ReadMemStats(&ms1)
			alloc := ms1.TotalAlloc - ms0.TotalAlloc
			t.Logf("%d bytes: %v, %d MB allocated, worst Update-side call %v (%s) of %d",
				len(h.text), elapsed.Round(time.Millisecond), alloc>>20, u.worst.Round(time.Microsecond), u.worstAt, u.calls)
			if u.worst > perCall {
				t.Errorf("%s took %v on the Update goroutine (limit %v)", u.worstAt, u.worst, perCall)
			}
			if alloc > allocLimit {
				t.Errorf("allocated %d MB (limit %d MB)", alloc>>20, allocLimit>>20)
			}
			it := tr.list.items[1]
			if it.pending || it.live != nil {
				t.Fatalf("the reply is still waiting for a render (pending %v)", it.pending)
			}
			var text strings.Builder
			for k := range it.height() {
				l := it.line(k)
				if ansi.StringWidth(l) != w {
					t.Fatalf("line %d is %d cells wide, not %d: %q", k, ansi.StringWidth(l), w, l)
				}
				assertOnlyColours(t, l)
				text.WriteString(ansi.Strip(l))
				text.WriteByte('\n')
			}
			if !strings.Contains(text.String(), h.want) {
				t.Errorf("the reply does not show %q:\n%s", h.want, tail(text.String(), 2000))
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// assertOnlyColours fails if a line holds anything but text and SGR.
func assertOnlyColours(t *testing.T, l string) {
	t.Helper()
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == 0x1b {
			if i+1 >= len(l) || l[i+1] != '[' {
				t.Fatalf("line keeps a non-CSI escape: %q", l)
			}
			j := i + 2
			for j < len(l) && (l[j] >= '0' && l[j] <= '9' || l[j] == ';' || l[j] == ':') {
				j++
			}
			if j >= len(l) || l[j] != 'm' {
				t.Fatalf("line keeps a CSI that is not SGR: %q", l)
			}
			i = j
			continue
		}
		if c < 0x20 || c == 0x7f {
			t.Fatalf("line keeps control byte %#x: %q", c, l)
		}
	}
}
