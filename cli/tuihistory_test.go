package cli

import (
	"context"
	"io"
	"parley/config"
	"testing"
	"time"
)

// TestTheChatsHistoryOpensPastTheEndOfItsCommand: the store a new chat
// opens in the background is not stopped by the end of the command's
// context (a signal that ends the chat): a turn the chat queued before the
// open finished is still written, as the recorder outlives that context
// for the same reason.
func TestTheChatsHistoryOpensPastTheEndOfItsCommand(t *testing.T) {
	h := newHarness(t)
	a := newApp(Env{Getenv: func(k string) string { return h.env[k] }, HomeDir: h.home, Now: func() time.Time { return h.now }, Stderr: io.Discard})
	ctx, cancel := context.WithCancel(context.Background())
	hist, err := a.tuiHistory(ctx, &config.Config{History: true}, historyFlags{})
	cancel()
	if err != nil || hist.Store == nil {
		t.Fatalf("tuiHistory = %+v, %v", hist, err)
	}
	defer hist.Store.Close()
	if err := hist.Store.Opened(context.Background()); err != nil {
		t.Fatalf("the history's open was stopped with the command's context: %v", err)
	}
}
