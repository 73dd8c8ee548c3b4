package conversation

import (
	"testing"
	"time"
)

// Reasoning that came in one piece is timed from when the reply was asked
// for, so it folds as "Thought for …" like any other; and the duration
// reads the same in the chat and the export (150 ms is "0.2 s" in both:
// one function says it).
func TestThoughtForAndItsText(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	onePiece := Message{Created: t0, ReasoningStart: t0.Add(150 * time.Millisecond), ReasoningEnd: t0.Add(150 * time.Millisecond)}
	if d := onePiece.ThoughtFor(); d != 150*time.Millisecond {
		t.Fatalf("one-piece reasoning thought for %v, want 150ms", d)
	}
	streamed := Message{Created: t0, ReasoningStart: t0.Add(time.Second), ReasoningEnd: t0.Add(3 * time.Second)}
	if d := streamed.ThoughtFor(); d != 2*time.Second {
		t.Fatalf("streamed reasoning thought for %v, want 2s", d)
	}
	for d, want := range map[time.Duration]string{
		150 * time.Millisecond:  "0.2 s",
		4200 * time.Millisecond: "4.2 s",
		42 * time.Second:        "42 s",
		185 * time.Second:       "3 min 5 s",
	} {
		if got := ThoughtText(d); got != want {
			t.Errorf("ThoughtText(%v) = %q, want %q", d, got, want)
		}
	}
}
