package media

import (
	"context"
	"errors"
	"image/color"
	"image/jpeg"
	"sync"
	"testing"
	"time"

	"parley/media/mediatest"
)

// TestDecodeStopsWhenCancelled: a decode stops soon after its context
// ends. The standard decoders cannot be interrupted; they stop at their
// next read, where the reader finds the context ended, so a decode can be
// as late as the longest stretch of work between two reads. Reads come
// every 1 KB, and for a JPEG at every scan too: the decoder comes back to
// the reader at least that often (checked), a decode whose context ends
// halfway through its reads returns the context's error, and the longest
// stretches, measured on a whole decode, are logged (BENCHMARKS.md): one
// scan for the scan-heavy JPEG, where without the cuts at scans it was
// dozens. After the last read come the final pass of a progressive JPEG
// and all of a lossless WEBP's decoding (it reads its few bytes first);
// they end with the context's error, not pixels.
func TestDecodeStopsWhenCancelled(t *testing.T) {
	side := 7000
	if raceDetector {
		side = 2500
	}
	bomb := mediatest.ScanBombJPEG(side, side, MaxJPEGScans)
	cases := []struct {
		name  string
		data  []byte
		scans int
	}{
		{"progressive JPEG of 100 scans", bomb, MaxJPEGScans},
		{"baseline JPEG", mediatest.JPEG(t, mediatest.PhotoYCbCr(side*6/7, side*4/7), 90), 1},
		{"PNG", mediatest.ZeroPNG(t, side*6/7, side*4/7, 8, mediatest.RGBA, false, false), 0},
		{"lossless WEBP", mediatest.SolidWEBP(side*5/7, side*5/7, color.NRGBA{1, 2, 3, 255}), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			watch := newTripCtx(-1)
			_, _, release, err := Decode(watch, c.data, nil)
			release()
			if err != nil {
				t.Fatal(err)
			}
			reads, gap, tail, full := watch.gaps()
			t.Logf("full decode %v, %d reads: at most %v between two reads, %v after the last", full, reads, gap, tail)
			if want := max(len(c.data)/readChunk, c.scans); reads < want {
				t.Errorf("%d reads of a %d-byte image of %d scans; a cancel would wait for the decoder longer than a scan or 1 KB", reads, len(c.data), c.scans)
			}
			trip := newTripCtx(int64(reads / 2))
			img, _, release, err := Decode(trip, c.data, nil)
			release()
			if !errors.Is(err, context.Canceled) || img != nil {
				t.Fatalf("a decode whose context ended halfway: %v", err)
			}
		})
	}
	// The progressive JPEG without the cuts at scans, for comparison.
	watch := newTripCtx(-1)
	if _, err := jpeg.Decode(&ctxReader{ctx: watch, data: bomb}); err != nil {
		t.Fatal(err)
	}
	watch.Err() // as Decode checks once more at the end
	reads, gap, _, full := watch.gaps()
	t.Logf("the progressive JPEG without cuts at scans: %v, %d reads, at most %v between two", full, reads, gap)
}

// tripCtx is a context that ends at its after+1st check of Err (never when
// after < 0), which the reader feeding a decoder makes at every read, and
// notes when each check came.
type tripCtx struct {
	context.Context
	after int64
	done  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	start time.Time
	times []time.Time
}

func newTripCtx(after int64) *tripCtx {
	return &tripCtx{Context: context.Background(), after: after, done: make(chan struct{}), start: time.Now()}
}

func (c *tripCtx) Err() error {
	c.mu.Lock()
	c.times = append(c.times, time.Now())
	n := int64(len(c.times))
	c.mu.Unlock()
	if c.after >= 0 && n > c.after {
		c.once.Do(func() { close(c.done) })
	}
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func (c *tripCtx) Done() <-chan struct{} { return c.done }

// gaps are, for a context Decode used: how many reads checked it (all
// checks but Decode's last), the longest time between two of them, the
// time from the last read to Decode's last check, and from the start to
// that check.
func (c *tripCtx) gaps() (reads int, gap, tail, full time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.times)
	if n < 2 {
		return 0, 0, 0, 0
	}
	for i := 1; i < n-1; i++ {
		gap = max(gap, c.times[i].Sub(c.times[i-1]))
	}
	return n - 1, gap, c.times[n-1].Sub(c.times[n-2]), c.times[n-1].Sub(c.start)
}

// TestDecodesShareTheBudget: decodes draw on one Budget. One that does not
// fit waits until another releases, one larger than the whole budget is
// refused at once, and one whose context ends while it waits gives up
// without holding anything.
func TestDecodesShareTheBudget(t *testing.T) {
	img := mediatest.ZeroPNG(t, 1000, 1000, 8, mediatest.RGBA, false, false)
	info, err := Inspect(img)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBudget(info.Decoded * 3 / 2) // room for one, not two
	_, _, releaseA, err := Decode(context.Background(), img, b)
	if err != nil {
		t.Fatal(err)
	}
	if b.Held() != info.Decoded {
		t.Fatalf("held %d while one image of %d is decoded", b.Held(), info.Decoded)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	_, _, release, err := Decode(ctx, img, b)
	cancel()
	release()
	if !errors.Is(err, context.DeadlineExceeded) || b.Held() != info.Decoded {
		t.Fatalf("a decode that cannot fit before its deadline: %v, held %d", err, b.Held())
	}

	done := make(chan error, 1)
	go func() {
		_, _, release, err := Decode(context.Background(), img, b)
		release()
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the second decode did not wait for the first: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	releaseA()
	releaseA() // a second call gives nothing back twice
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if b.Held() != 0 {
		t.Fatalf("held %d after every decode released", b.Held())
	}

	big := mediatest.ZeroPNG(t, 2000, 2000, 8, mediatest.RGBA, false, false)
	_, _, release, err = Decode(context.Background(), big, b)
	release()
	var be *BudgetError
	if !errors.As(err, &be) || be.Budget != b.Total() {
		t.Fatalf("an image over the whole budget: %v", err)
	}
}
