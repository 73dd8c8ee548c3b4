package e2e

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestHugePagesEndWithTheStart: the chat's heap is advised to use huge
// pages while it starts (internal/hugeheap), and a second later the advice
// is taken back, so that the kernel's khugepaged does not make whole 2 MiB
// again of what the runtime returns for as long as the chat runs. Read
// from the running binary's mappings: none may be advised ("hg") any more.
// (That the start advises its heap is internal/hugeheap's own tests.)
func TestHugePagesEndWithTheStart(t *testing.T) {
	t.Parallel()
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		t.Skip(`transparent huge pages are not set to "madvise" here, where the start's advice is taken back`)
	}
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=") {
		t.Skip("GODEBUG sets disablethp, which parley follows")
	}
	tm := startParley(t, launch{Width: 120, Height: 40, Gateway: apitest.New(t), Config: chatConfig})
	tm.waitText(composerReady)
	pid := tm.parleyPID()
	deadline := time.Now().Add(10 * time.Second)
	hg := advisedMappings(t, pid)
	for hg != 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		hg = advisedMappings(t, pid)
	}
	if hg != 0 {
		t.Errorf("10 s into the chat, %d of its mappings are still advised to use huge pages; the advice should end a second after the start", hg)
	}
	tm.keys("C-q")
}

// advisedMappings counts the mappings of process pid whose VmFlags carry
// "hg" (MADV_HUGEPAGE).
func advisedMappings(t *testing.T, pid int) (hg int) {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps")
	if err != nil {
		t.Fatalf("reading parley's mappings: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		flags, ok := strings.CutPrefix(line, "VmFlags:")
		if !ok {
			continue
		}
		if slices.Contains(strings.Fields(flags), "hg") {
			hg++
		}
	}
	return hg
}
