package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// tableRSSBudget is the most memory (peak resident set) parley may use with
// a 2 MB Markdown table for a reply (issue 18 §1: it peaked at 1.8 GB and
// died out of memory; reopening the session crashed it again).
const tableRSSBudget = 300 << 20

// TestHugeTableReply streams a 2 MB, 50-column Markdown table into the
// real binary, then reopens the session with --continue, and checks that
// parley stays within tableRSSBudget both times, shows the end of the
// reply, and answers a key at once.
func TestHugeTableReply(t *testing.T) {
	t.Parallel()
	if raceBuild {
		t.Skip("the race detector multiplies memory use; this measures the real binary")
	}
	table := bigTable(50, 2<<20)
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: table, DeltaRunes: 4096, Interval: time.Millisecond})
	home := t.TempDir()
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home, Width: 120, Height: 40})
	tm.waitText(composerReady)
	pid := tm.parleyPID()
	tm.send("the table please")
	waitFor(t, tm, time.Minute, "the end of the table.")
	checkResponsive(t, tm)
	live := peakRSS(t, pid)
	quitChat(t, tm)

	again := startParley(t, launch{Gateway: gw, Config: chatConfig, home: home, Width: 120, Height: 40, args: []string{"--continue"}})
	pid = again.parleyPID()
	waitFor(t, again, time.Minute, "the end of the table.")
	// The reply renders in the background: let it finish.
	time.Sleep(2 * time.Second)
	checkResponsive(t, again)
	reopened := peakRSS(t, pid)
	t.Logf("%d KB table: peak RSS %d MB streamed, %d MB reopened", len(table)>>10, live>>20, reopened>>20)
	if live > tableRSSBudget || reopened > tableRSSBudget {
		t.Errorf("parley used %d MB streaming and %d MB reopening the table (budget %d MB)", live>>20, reopened>>20, tableRSSBudget>>20)
	}
	quitChat(t, again)
}

// bigTable is a Markdown table of cols columns and about size bytes, with
// a last line after it.
func bigTable(cols, size int) string {
	var b strings.Builder
	b.WriteString("Here is the data:\n\n")
	for c := range cols {
		fmt.Fprintf(&b, "| col%d ", c)
	}
	b.WriteString("|\n")
	for range cols {
		b.WriteString("|---")
	}
	b.WriteString("|\n")
	for r := 0; b.Len() < size; r++ {
		for c := range cols {
			fmt.Fprintf(&b, "| r%dc%d ", r, c)
		}
		b.WriteString("|\n")
	}
	b.WriteString("\nThat is the end of the table.\n")
	return b.String()
}

// waitFor waits up to limit for text on the screen.
func waitFor(t *testing.T, tm *term, limit time.Duration, text string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !strings.Contains(tm.screen(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("%q did not show within %v; the screen:\n%s", text, limit, frame(tm.screen()))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkResponsive types a word and wants it echoed in the composer within
// a second.
func checkResponsive(t *testing.T, tm *term) {
	t.Helper()
	start := time.Now()
	tm.typeText("still here")
	for !strings.Contains(tm.screen(), "still here") {
		if time.Since(start) > time.Second {
			t.Fatalf("a typed word took more than a second to show; the screen:\n%s", frame(tm.screen()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.keys("C-u")
}

// peakRSS is the most memory the process has had resident (VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("reading parley's memory use: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM: %q", l)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}
