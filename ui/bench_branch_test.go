package ui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/chat"
	"parley/conversation"
)

// Issue 16, Speed: switching branches in a 10,000-message session draws
// within 16 ms. These benchmarks press ← and → on the message cursor of the
// root model, the whole path a user's key takes: the conversation switches,
// its listener resets the transcript to the new path, the cursor reveals
// the alternative, and Update composes the frame that View returns.

// The session of the benchmarks: the third reply (id 6) has a newer
// alternative (id 7, shown 2/2) that the rest of the session follows, so a
// switch replaces the path almost whole.
const (
	branchShortAlt = 6 // ends the short branch: 6 messages
	branchLongAlt  = 7 // the long branch's alternative: n messages follow from it
)

// Words that start the two alternatives, so a frame can be checked to
// show the one switched to.
const (
	branchShortMark = "Shortbranch"
	branchLongMark  = "Longbranch"
)

var benchWords = strings.Fields(`the a of to and in is it that for on with as this be are
by from at or an not which have can you use your function value returns error
request stream model token buffer width height screen render cache line block
message context terminal reply version option config server client handler`)

func benchSentence(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := benchWords[r.IntN(len(benchWords))]
		switch r.IntN(12) {
		case 0:
			w = "`" + w + "()`"
		case 1:
			w = "**" + w + "**"
		}
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	b.WriteString(".")
	return b.String()
}

// benchReply is a Markdown reply of roughly 300–1,500 bytes: paragraphs, a
// list now and then, a heading now and then, and in one reply in four a
// fenced code block.
func benchReply(r *rand.Rand) string {
	var blocks []string
	size := 300 + r.IntN(1200)
	code := r.IntN(4) == 0
	for n := 0; n < size; {
		var blk string
		switch k := r.IntN(10); {
		case code && n > size/3:
			code = false
			blk = fmt.Sprintf("```go\nfunc %s(n int) (string, error) {\n\tif n > %d {\n\t\treturn \"\", fmt.Errorf(\"too many: %%d\", n)\n\t}\n\treturn strings.Repeat(%q, n), nil\n}\n```",
				benchWords[r.IntN(len(benchWords))], r.IntN(100), benchWords[r.IntN(len(benchWords))])
		case k == 0:
			blk = "## " + strings.TrimSuffix(benchSentence(r, 3), ".")
		case k <= 6:
			blk = benchSentence(r, 8+r.IntN(10)) + " " + benchSentence(r, 6+r.IntN(10))
		default:
			blk = fmt.Sprintf("- %s\n- %s\n- %s", benchSentence(r, 6), benchSentence(r, 8), benchSentence(r, 5))
		}
		blocks = append(blocks, blk)
		n += len(blk) + 2
	}
	return strings.Join(blocks, "\n\n")
}

// branchSession is a stored session whose active path holds n messages
// (n ≥ 8): questions and Markdown replies, with the branch of
// branchShortAlt and branchLongAlt; the path ends at the newest message.
func branchSession(n int) conversation.Snapshot {
	r := rand.New(rand.NewPCG(16, 16))
	created := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	msgs := make([]conversation.Message, 0, n+1)
	for id := 1; id <= n+1; id++ {
		m := conversation.Message{ID: id, Parent: id - 1, Created: created, Version: 1}
		user := id%2 == 1
		switch {
		case id == branchLongAlt:
			m.Parent, user = branchShortAlt-1, false
		case id > branchLongAlt:
			user = id%2 == 0
		}
		if user {
			m.Role, m.Text = api.RoleUser, benchSentence(r, 6+r.IntN(20))
		} else {
			m.Role, m.Model, m.FinishReason = api.RoleAssistant, "gpt-4o", "stop"
			m.Text = benchReply(r)
		}
		switch id {
		case branchShortAlt:
			m.Text = branchShortMark + " " + m.Text
		case branchLongAlt:
			m.Text = branchLongMark + " " + m.Text
		}
		msgs = append(msgs, m)
	}
	return conversation.Snapshot{Messages: msgs, Leaf: n + 1}
}

// branchBenchModel is the chat at 120x40 with the session of n messages
// open (settled: what is near the window rendered) and the message cursor
// on branchLongAlt, 2/2, and its engine.
func branchBenchModel(b *testing.B, n int) (*Model, *chat.Engine) {
	b.Helper()
	clock := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	m, eng := newWithEngine(context.Background(), Options{
		Model: "gpt-4o", Theme: "dark", Width: 120, Height: 40,
		Now:       func() time.Time { return clock },
		NewClient: func(string) (*api.Client, error) { return nil, errBadKey },
	})
	snap := branchSession(n)
	m.openConversation(eng.Restore(conversation.NewID(), snap), len(snap.Messages))
	renderAll(m)
	m.selectMessage(branchLongAlt)
	renderAll(m)
	m.Update(frameMsg{})
	if got := eng.Conv().Len(); got != n {
		b.Fatalf("the session's path holds %d messages, want %d", got, n)
	}
	if i, c := eng.Conv().Tree().Alternatives(branchLongAlt); i != 1 || c != 2 {
		b.Fatalf("message %d is alternative %d/%d, want 2/2", branchLongAlt, i+1, c)
	}
	checkSwitched(b, m, eng, n, branchLongAlt, branchLongMark)
	return m, eng
}

// switchFrame presses key on the message cursor and takes the frame, as
// Bubble Tea does: Update, then View.
func switchFrame(m *Model, key tea.KeyPressMsg) {
	m.Update(key)
	_ = m.View()
}

// checkSwitched fails unless the path holds n messages, the cursor is on
// sel and the frame shows the start of that alternative.
func checkSwitched(b *testing.B, m *Model, eng *chat.Engine, n, sel int, mark string) {
	b.Helper()
	if got := eng.Conv().Len(); got != n {
		b.Fatalf("after the switch the path holds %d messages, want %d", got, n)
	}
	if on, msg := cursorOf(m); on != focusMessages || msg != sel {
		b.Fatalf("after the switch the cursor is on %d (focus %d), want message %d", msg, on, sel)
	}
	if v := m.View().Content; !strings.Contains(ansi.Strip(v), mark) {
		b.Fatalf("the frame after the switch does not show %q:\n%s", mark, ansi.Strip(v))
	}
}

// BenchmarkSwitchBranchFrame: the message cursor on the third reply of a
// 10,000-message session, which has two alternatives. to-long is → from
// the short branch (6 messages) to the long one (10,000) and its frame;
// to-short is ← the other way; the way back of each runs with the timer
// stopped. to-long-unseen is to-long to a branch the transcript has not
// shown since the session was opened: the way back also opens the
// session's short branch again (Transcript.Reset), so nothing of the long
// one is left to reuse. round-trip is both, timed (two switches an op). cpu-ms/op is
// the CPU time of the benchmark's thread for the timed part, which a
// shared machine distorts much less than wall time. In a -cpuprofile,
// -tagfocus bench=timed keeps the timed part alone.
func BenchmarkSwitchBranchFrame(b *testing.B) {
	const n = 10_000
	keyLeft, keyRight := tea.KeyPressMsg{Code: tea.KeyLeft}, tea.KeyPressMsg{Code: tea.KeyRight}
	timedLabel := pprof.Labels("bench", "timed") // marks the timed part in a CPU profile
	type step struct {
		key  tea.KeyPressMsg
		n    int
		sel  int
		mark string
	}
	toShort := step{keyLeft, branchShortAlt, branchShortAlt, branchShortMark}
	toLong := step{keyRight, n, branchLongAlt, branchLongMark}
	for _, tc := range []struct {
		name        string
		timed, back []step
		reopen      bool // after the way back, the transcript forgets the other branch
	}{
		{"to-long", []step{toLong}, []step{toShort}, false},
		{"to-long-unseen", []step{toLong}, []step{toShort}, true},
		{"to-short", []step{toShort}, []step{toLong}, false},
		{"round-trip", []step{toShort, toLong}, nil, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			m, eng := branchBenchModel(b, n)
			reopen := func() {
				if tc.reopen {
					_, msg := cursorOf(m)
					m.tr.Reset(eng.Conv().Messages())
					m.tr.List().Reveal(msg)
					renderAll(m)
				}
			}
			if tc.timed[0] == toLong {
				switchFrame(m, keyLeft)
				reopen()
				checkSwitched(b, m, eng, toShort.n, toShort.sel, toShort.mark)
			}
			var cpu time.Duration
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				c0 := threadCPU()
				pprof.Do(ctx, timedLabel, func(context.Context) {
					for _, s := range tc.timed {
						switchFrame(m, s.key)
					}
				})
				cpu += threadCPU() - c0
				if got, want := eng.Conv().Len(), tc.timed[len(tc.timed)-1].n; got != want {
					b.Fatalf("after the timed switch the path holds %d messages, want %d", got, want)
				}
				if tc.back != nil {
					b.StopTimer()
					for _, s := range tc.back {
						switchFrame(m, s.key)
					}
					reopen()
					b.StartTimer()
				}
			}
			b.StopTimer()
			if tc.back != nil {
				// Once more, to look at the frame the timed switch drew.
				for _, s := range tc.timed {
					switchFrame(m, s.key)
				}
			}
			last := tc.timed[len(tc.timed)-1]
			checkSwitched(b, m, eng, last.n, last.sel, last.mark)
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
		})
	}
}
