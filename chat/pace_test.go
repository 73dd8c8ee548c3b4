package chat

import (
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

func TestUntilTake(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, c := range []struct {
		name  string
		taken time.Time
		every time.Duration
		now   time.Time
		want  time.Duration
	}{
		{"never taken: the gap", time.Time{}, 0, t0, 50 * ms},
		{"taken once: the gap", t0, 0, t0.Add(10 * ms), 50 * ms},
		{"right after a take: until just before the next", t0, 150 * ms, t0.Add(2 * ms), 133 * ms},
		{"late in the frame: the rest of it", t0, 150 * ms, t0.Add(100 * ms), 35 * ms},
		{"too close to the next take: the one after", t0, 150 * ms, t0.Add(132 * ms), 153 * ms},
		{"after a wait past the take: the next on the grid", t0, 150 * ms, t0.Add(200 * ms), 85 * ms},
		{"owner long late: still on the grid, within a frame", t0, 100 * ms, t0.Add(10 * time.Second), 85 * ms},
		{"a take out of turn does not make it spin", t0, 1 * ms, t0.Add(1 * ms), 24 * ms},
		{"an owner that paused long does not make it sleep long", t0, 5 * time.Second, t0.Add(1 * ms), 234 * ms},
	} {
		if got := untilTake(50*ms, c.taken, c.every, c.now); got != c.want {
			t.Errorf("%s: untilTake = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReaderWakesOncePerTake: a reader whose pump is taken every 100 ms
// pauses about once per take, its pause ending just before the take, not
// every gap (50 ms: twice a take); every delta arrives.
func TestReaderWakesOncePerTake(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	const deltas = 300 // one every 5 ms: 1.5 s
	text := strings.Repeat("abc ", deltas)
	gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: 4, Interval: 5 * time.Millisecond})
	r, err := e.Begin(ask("go"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { r.Run(50 * time.Millisecond); close(done) }()
	var got strings.Builder
	// Counted from the third take, when the pace is known, to the last
	// one before the stream ended.
	takes, from, to, counted := 0, 0, 0, 0
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-tick.C:
		}
		b := r.Pump().Take()
		got.WriteString(b.Text)
		if !running {
			break
		}
		switch takes++; {
		case takes == 3:
			from = r.Pump().Pauses()
		case takes > 3:
			to, counted = r.Pump().Pauses(), takes-3
		}
	}
	if got.String() != text {
		t.Fatalf("%d of %d bytes arrived", got.Len(), len(text))
	}
	if counted < 8 {
		t.Fatalf("only %d takes were counted; the stream should have lasted 1.5 s", counted)
	}
	// A pause of the gap would be two a take.
	if p := to - from; float64(p) > 1.4*float64(counted) {
		t.Errorf("the reader paused %d times in %d takes; once a take expected", p, counted)
	}
}
