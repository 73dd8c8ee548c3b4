package preview

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"parley/media"
	"parley/media/mediatest"
)

// TestRenderStopsWithItsContext: a preview whose context ends (the
// conversation was left, the pane closed) stops decoding within a scan
// and is not kept; a caller that was waiting for the same preview with a
// live context makes it itself, and that one is kept.
func TestRenderStopsWithItsContext(t *testing.T) {
	side := 4000
	if raceDetector {
		side = 2000
	}
	src := NewSource(mediatest.ScanBombJPEG(side, side, media.MaxJPEGScans))
	opts := Options{Mode: Blocks, Profile: colorprofile.TrueColor}
	c := NewCache(0, 0)

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() {
		_, err := c.RenderContext(ctx, src, 40, 20, opts)
		stopped <- err
	}()
	for c.Budget().Held() == 0 { // the first render is decoding
		time.Sleep(time.Millisecond)
	}
	waiter := make(chan error, 1)
	go func() {
		_, err := c.RenderContext(context.Background(), src, 40, 20, opts)
		waiter <- err
	}()
	time.Sleep(100 * time.Millisecond)
	at := time.Now()
	cancel()
	err := <-stopped
	late := time.Since(at)
	if !errors.Is(err, context.Canceled) || err.Error() != "the preview was stopped: context canceled" {
		t.Fatalf("cancelled render: %v", err)
	}
	t.Logf("the cancelled render returned %v after the cancel", late)
	if late > time.Second {
		t.Errorf("the cancelled render took %v to stop", late)
	}
	if err := <-waiter; err != nil {
		t.Fatalf("the waiting render: %v", err)
	}
	if r, ok := c.Get(src.Sum, 40, 20, opts); !ok || len(r.Lines) != 20 {
		t.Fatal("the finished preview is not kept")
	}
	if c.Budget().Held() != 0 {
		t.Fatalf("%d bytes of the budget still reserved", c.Budget().Held())
	}
}
