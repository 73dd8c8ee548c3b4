package main

import (
	"runtime/debug"
	"testing"
	"time"
)

// TestLighterGCAtStart: the start's target holds for its span, then the
// one before it is back; a target set meanwhile (a long session opened in
// the first second) is kept; with GOGC set nothing changes.
func TestLighterGCAtStart(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	none := func(string) string { return "" }
	restored := lighterGCAtStart(50*time.Millisecond, none)
	if got := debug.SetGCPercent(startGCPercent); got != startGCPercent {
		t.Errorf("during the start the target is %d, want %d", got, startGCPercent)
	}
	waitRestored(t, restored)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the start the target is %d, want the 100 it was", got)
	}

	restored = lighterGCAtStart(50*time.Millisecond, none)
	debug.SetGCPercent(20) // as setHeapFor does for a long session
	waitRestored(t, restored)
	if got := debug.SetGCPercent(100); got != 20 {
		t.Errorf("a target set during the start became %d after it, want the 20 set", got)
	}

	debug.SetGCPercent(800)
	waitRestored(t, lighterGCAtStart(time.Hour, func(k string) string {
		if k == "GOGC" {
			return "800"
		}
		return ""
	}))
	if got := debug.SetGCPercent(100); got != 800 {
		t.Errorf("with GOGC=800 the start set the target to %d", got)
	}
}

// waitRestored waits for lighterGCAtStart's span to end.
func waitRestored(t *testing.T, restored <-chan struct{}) {
	t.Helper()
	select {
	case <-restored:
	case <-time.After(10 * time.Second):
		t.Fatal("the start's span never ended")
	}
}
