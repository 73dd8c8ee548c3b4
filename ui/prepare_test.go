package ui

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
)

// prepareChild marks the fresh process TestWidthsAskedWhilePrepareRuns
// runs its check in: the width table is built once per process.
const prepareChild = "PARLEY_PREPARE_CHILD"

// TestWidthsAskedWhilePrepareRuns: in a fresh process, widths asked while
// Prepare builds go-runewidth's table (as the first frame asks them beside
// it) are the table's, and asking them then is race-free. parley's copy
// answers them from the Unicode tables instead of waiting for the build
// (third_party/go-runewidth/PATCHED.md); this test holds the widths those
// answers give, not how long they take.
func TestWidthsAskedWhilePrepareRuns(t *testing.T) {
	if os.Getenv(prepareChild) == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestWidthsAskedWhilePrepareRuns$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), prepareChild+"=1", "GORACE=atexit_sleep_ms=0")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWidthsAskedWhilePrepareRuns") {
			t.Fatalf("the child process: %v\n%s", err, out)
		}
		return
	}
	const askers = 3
	got := make([][]byte, askers)
	var wg sync.WaitGroup
	wg.Go(Prepare)
	for a := range got {
		got[a] = make([]byte, 0x110000)
		wg.Go(func() {
			for r := rune(0x300 + a); r < 0x110000; r += askers {
				got[a][r] = byte(runewidth.RuneWidth(r))
			}
		})
	}
	wg.Wait()
	for a := range got {
		for r := rune(0x300 + a); r < 0x110000; r += askers {
			if want := runewidth.RuneWidth(r); int(got[a][r]) != want {
				t.Fatalf("%U was %d cells wide while the table was built and is %d in it", r, got[a][r], want)
			}
		}
	}
}
