package api

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parley/internal/bytesize"
	"parley/media"
	"parley/media/mediatest"
)

// TestAttachmentsShareTheDecodeBudget: four large images attached at once
// (a paste, the clipboard, the image pane) decode within one shared
// budget, so they take it in turn, where each had a budget of its own and
// four reached 770 MB together. The budget's reservations never pass its
// total, and the heap's peak is measured both ways.
func TestAttachmentsShareTheDecodeBudget(t *testing.T) {
	w, h := 6000, 4000 // 96 MB decoded
	if raceDetector {
		w, h = 3000, 2000
	}
	img := mediatest.ZeroPNG(t, w, h, 8, mediatest.RGBA, false, false)
	info, err := media.Inspect(img)
	if err != nil {
		t.Fatal(err)
	}
	attachFour := func(lim AttachLimits) (mediatest.Alloc, int64) {
		var most atomic.Int64
		stop := make(chan struct{})
		var watch sync.WaitGroup
		if lim.Budget != nil {
			watch.Add(1)
			go func() { // the reservations, sampled
				defer watch.Done()
				for {
					most.Store(max(most.Load(), lim.Budget.Held()))
					select {
					case <-stop:
						return
					case <-time.After(time.Millisecond):
					}
				}
			}()
		}
		a := mediatest.Measure(func() {
			var wg sync.WaitGroup
			for i := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					at, err := AttachBytesContext(context.Background(), fmt.Sprintf("big %d.png", i), img, lim)
					if err != nil || !at.Resized {
						t.Errorf("image %d: %v", i, err)
					}
				}()
			}
			wg.Wait()
		})
		close(stop)
		watch.Wait()
		return a, most.Load()
	}
	alone, _ := attachFour(AttachLimits{})
	shared := media.NewBudget(info.Decoded * 3 / 2) // room for one at a time
	together, held := attachFour(AttachLimits{Budget: shared})
	t.Logf("four %dx%d PNGs (%d MB decoded each) at once: peak heap %d MB with a budget each, %d MB sharing one of %d MB (at most %d MB reserved)",
		w, h, info.Decoded>>20, alone.Peak>>20, together.Peak>>20, shared.Total()>>20, held>>20)
	if held > shared.Total() || held < info.Decoded {
		t.Errorf("reserved at most %d bytes of a budget of %d for images of %d", held, shared.Total(), info.Decoded)
	}
	if shared.Held() != 0 {
		t.Errorf("%d bytes still reserved after every image was attached", shared.Held())
	}
	// One image decoded at a time, plus what the collector has not taken
	// back yet of the one before, is well under four at once.
	if together.Peak > 3*uint64(info.Decoded) {
		t.Errorf("peak heap %d MB sharing the budget, more than three images (%d MB)", together.Peak>>20, 3*info.Decoded>>20)
	}

	// An image over the whole budget is refused with the usual sentence,
	// and one that waits for the budget stops with its context.
	small := media.NewBudget(info.Decoded / 2)
	if _, err := AttachBytesContext(context.Background(), "big.png", img, AttachLimits{Budget: small}); err == nil ||
		err.Error() != fmt.Sprintf("cannot attach %q: it is %dx%d pixels (%s decoded), more than parley decodes (%s); shrink it first",
			"big.png", w, h, bytesize.Format(info.Decoded), bytesize.Format(small.Total())) {
		t.Errorf("over the budget: %v", err)
	}
	busy := media.NewBudget(info.Decoded)
	_, _, release, err := media.Decode(context.Background(), img, busy)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = AttachBytesContext(ctx, "waits.png", img, AttachLimits{Budget: busy})
	if !errors.Is(err, context.DeadlineExceeded) || err.Error() != `attaching "waits.png" was stopped: context deadline exceeded` {
		t.Errorf("waiting for a busy budget past the deadline: %v", err)
	}
}
