package ui

import (
	"runtime/debug"
	"testing"
)

// TestHeapHeadroomFollowsTheSession: a long session lowers the
// collector's headroom, a short one or a new conversation brings the
// default back, and a GOGC the user set is left alone.
func TestHeapHeadroomFollowsTheSession(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })
	noEnv := func(string) string { return "" }
	percent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	setHeapFor(settleMessages, noEnv)
	if p := percent(); p != longSessionGCPercent {
		t.Fatalf("with %d messages open GOGC is %d, want %d", settleMessages, p, longSessionGCPercent)
	}
	setHeapFor(settleMessages-1, noEnv)
	if p := percent(); p != 100 {
		t.Fatalf("with a short session open GOGC is %d, want 100", p)
	}
	debug.SetGCPercent(70)
	setHeapFor(10_000, func(k string) string {
		if k == "GOGC" {
			return "70"
		}
		return ""
	})
	if p := percent(); p != 70 {
		t.Fatalf("the user's GOGC=70 became %d", p)
	}
}
