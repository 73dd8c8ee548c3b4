package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestLargePasteIsABlock: a paste longer than the composer holds (2,000
// lines through tmux's bracketed paste) is attached as a block: a chip,
// the typed text stays in the composer, and the gateway receives all of
// it as a text part.
func TestLargePasteIsABlock(t *testing.T) {
	const bigEchoWait = 90 * time.Second
	t.Parallel()
	gw := apitest.New(t)
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "%04d level=info msg=\"request served\" path=/api/items took=%dms\n", i, i%97)
	}
	text := b.String()
	file := filepath.Join(t.TempDir(), "log.txt")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startChat(t, gw)
	tm.typeText("why slow? ")
	tm.waitText("why slow?")
	tm.must("load-buffer", file)
	tm.must("paste-buffer", "-p", "-t", sessionName)
	tm.waitText("pasted-1.txt · 2000 lines", "is attached as a block")
	tm.keys("Enter")
	// The fake gateway echoes the message, block and all: its last line
	// on screen is the end of the reply. The race detector's binary took
	// 5 to 7 s of the 10 s waitTimeout to stream and render those 140 KB
	// on a loaded 2-core machine, and sometimes more: this wait is about
	// the text arriving, so it gets the longer bound.
	tm.waitCheckWithin(bigEchoWait, `"1999 level=info" on screen`, func(s string) error {
		if strings.Contains(s, "1999 level=info") {
			return nil
		}
		return errNotYet
	})
	reqs := chatRequests(gw)
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	parts := reqs[0].Chat.Messages[len(reqs[0].Chat.Messages)-1].Content.Parts
	if len(parts) != 2 || parts[0].Text != "why slow?" {
		t.Fatalf("the message has %d parts; first %q", len(parts), firstN([]string{parts[0].Text}, 40))
	}
	if want := "File: pasted-1.txt\n\n```text\n" + text + "```"; parts[1].Text != want {
		t.Fatalf("the block arrived as %d bytes, want %d", len(parts[1].Text), len(want))
	}
}
