package e2e

import (
	"os"
	"testing"
	"time"

	"parley/api/apitest"
)

// idleWakesBudget is how many times in all parley's threads may sleep and
// wake (voluntary context switches) in idleSpan of an idle chat. The
// renderer wakes only when there is a frame to write (parley's copy of
// Bubble Tea, third_party/bubbletea/PATCHED.md); upstream's ticker woke it
// rendererFPS times a second, about 200 switches a second.
const (
	idleSpan         = 3 * time.Second
	idleWakesBudget  = 30
	idleSettleBefore = 2 * time.Second
)

// TestIdleChatSleeps opens the empty chat, lets its start-up work end
// (the terminal's answers, the lexers read a second after start), and
// counts how often its threads wake while it only waits for a key.
func TestIdleChatSleeps(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc to count context switches in")
	}
	tm := startParley(t, launch{Width: 120, Height: 40, Gateway: apitest.New(t), Config: chatConfig})
	tm.waitText(composerReady)
	pid := tm.parleyPID()
	time.Sleep(idleSettleBefore)
	before := readProc(t, pid)
	time.Sleep(idleSpan)
	after := readProc(t, pid)
	if wakes := after.volCtx - before.volCtx; wakes > idleWakesBudget {
		t.Errorf("idle parley's threads slept and woke %d times in %v; the budget is %d (a renderer that ticks wakes about 200 times a second)", wakes, idleSpan, idleWakesBudget)
	}
	tm.keys("C-q")
	tm.waitExit()
}
