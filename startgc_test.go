package main

import (
	"runtime/debug"
	"testing"
	"time"
)

// TestLighterGCAtStart: the start's target holds for its span, then the
// one before it is back; a collector turned off stays off.
func TestLighterGCAtStart(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	restored := lighterGCAtStart(50 * time.Millisecond)
	if got := debug.SetGCPercent(startGCPercent); got != startGCPercent {
		t.Errorf("during the start the target is %d, want %d", got, startGCPercent)
	}
	select {
	case <-restored:
	case <-time.After(10 * time.Second):
		t.Fatal("the target was never put back")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the start the target is %d, want the 100 it was", got)
	}

	debug.SetGCPercent(-1)
	<-lighterGCAtStart(time.Hour)
	if got := debug.SetGCPercent(100); got != -1 {
		t.Errorf("a collector turned off was set to %d", got)
	}
}
