package transcript

import (
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

// BenchmarkStreamReasoning20KB streams about 20 KB of reasoning at 100
// deltas/s with 33 ms frames (as BenchmarkStream20KB streams an answer),
// folded (the last lines shown) and unfolded (all of it), and reports its
// CPU against streaming the same bytes as answer text: reasoning must not
// cost more than text (issue 17).
//
//	go test -run '^$' -bench 'BenchmarkStreamReasoning20KB' -count 3 ./ui/transcript/
func BenchmarkStreamReasoning20KB(b *testing.B) {
	text := reasoningText(randFor(20), 20_000)
	for _, open := range []bool{false, true} {
		name := map[bool]string{false: "folded", true: "unfolded"}[open]
		b.Run(name, func(b *testing.B) {
			var think, answer streamRun
			for range b.N {
				done := streamingMsg(101)
				done.State, done.Text, done.Reasoning = conversation.StateDone, "", text
				done.ReasoningStart, done.ReasoningEnd = time.Unix(0, 0), time.Unix(20, 0)
				think = simulateDeltas(b, text, false, func(tr *Transcript, id int, d string) {
					tr.SetThinkingOpen(open)
					tr.AppendReasoning(id, d)
				}, done)
				answer = simulateStream(b, text, false)
			}
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(think.cpu), "cpu-ms")
			b.ReportMetric(ms(answer.cpu), "text-cpu-ms")
			b.ReportMetric(float64(think.cpu)/float64(answer.cpu), "cpu-vs-text")
			b.ReportMetric(ms(pct(think.frames, 99)), "p99-frame-ms")
			b.ReportMetric(ms(pct(answer.frames, 99)), "text-p99-frame-ms")
		})
	}
}

// TestReasoningStreamCostsLessThanText is the benchmark's claim as a test
// (thread CPU, so a busy machine does not make it fail): streaming 20 KB
// of reasoning, folded, costs less than streaming it as answer text.
func TestReasoningStreamCostsLessThanText(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("timing: not under -race or -short")
	}
	text := reasoningText(randFor(21), 20_000)
	done := streamingMsg(101)
	done.State, done.Reasoning = conversation.StateDone, text
	think := simulateDeltas(t, text, false, (*Transcript).AppendReasoning, done)
	answer := simulateStream(t, strings.Clone(text), false)
	if think.cpu > answer.cpu {
		t.Fatalf("20 KB of reasoning took %v of CPU to stream, the same as text %v", think.cpu, answer.cpu)
	}
}

// BenchmarkUnfoldLargeReasoning unfolds (and folds again) one reply whose
// reasoning is at the cap, maxShownReasoning: prose, or one line without a
// space (the hostile case). The unfolded reply is laid out whole on the
// Update goroutine, so this is the longest a ctrl+t can take.
//
//	go test -run '^$' -bench 'BenchmarkUnfoldLargeReasoning' -count 3 ./ui/transcript/
func BenchmarkUnfoldLargeReasoning(b *testing.B) {
	for name, text := range map[string]string{
		"prose":    reasoningText(randFor(30), maxShownReasoning),
		"one-line": strings.Repeat("z", maxShownReasoning),
	} {
		b.Run(name, func(b *testing.B) {
			tr := newTest(b, benchW, benchH)
			tr.Reset([]conversation.Message{userMsg(1, "q"), reasoningReply(2, "Answer.", text, 30*time.Second, 9000)})
			settle(b, tr)
			b.ReportAllocs()
			c := startCPU(b)
			for range b.N {
				tr.SetThinkingOpen(true)
				_ = tr.List().View()
				c.stop()
				tr.SetThinkingOpen(false)
				c.start()
			}
			c.done()
		})
	}
}
