package media

import (
	"context"
	"errors"
	"image/color"
	"image/jpeg"
	"testing"
	"time"

	"parley/media/mediatest"
)

// TestDecodeStopsWhenCancelled: a decode stops soon after its context
// ends, for every kind of decoder work. The standard decoders stop at
// their next read; reads come every 1 KB, and for a progressive JPEG at
// every scan, so the time from cancel to return is at most one scan's
// worth of work, where without the cuts at scans it was dozens of scans.
// What no read interrupts is logged: a lossless WEBP reads its few bytes
// first and then decodes, so it only stops at the end (and still returns
// the context's error, not pixels nobody wants).
func TestDecodeStopsWhenCancelled(t *testing.T) {
	side := 7000
	if raceDetector {
		side = 2500
	}
	bomb := mediatest.ScanBombJPEG(side, side, MaxJPEGScans)
	cases := []struct {
		name          string
		data          []byte
		interruptible bool
	}{
		{"progressive JPEG of 100 scans", bomb, true},
		{"baseline JPEG", mediatest.JPEG(t, mediatest.PhotoYCbCr(side*6/7, side*4/7), 90), true},
		{"PNG", mediatest.ZeroPNG(t, side*6/7, side*4/7, 8, mediatest.RGBA, false, false), true},
		{"lossless WEBP", mediatest.SolidWEBP(side*5/7, side*5/7, color.NRGBA{1, 2, 3, 255}), false},
	}
	var bombAt time.Duration // half of the scan bomb's decode
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, _, release, err := Decode(context.Background(), c.data, nil)
			release()
			full := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			at := full / 2
			if c.name == cases[0].name {
				bombAt = at
			}
			ctx, cancel := context.WithCancel(context.Background())
			timer := time.AfterFunc(at, cancel)
			defer timer.Stop()
			start = time.Now()
			img, _, release, err := Decode(ctx, c.data, nil)
			release()
			late := time.Since(start) - at
			if !errors.Is(err, context.Canceled) || img != nil {
				t.Fatalf("cancelled decode: %v", err)
			}
			t.Logf("full decode %v; cancelled at %v, returned %v later", full, at, late)
			if c.interruptible && late > max(full/4, 50*time.Millisecond) {
				t.Errorf("returned %v after the cancel; a decode of %v should stop within a quarter of it", late, full)
			}
		})
	}
	// The same cancel without the cuts at scans, for comparison.
	ctx, cancel := context.WithCancel(context.Background())
	start := time.Now()
	timer := time.AfterFunc(bombAt, cancel)
	defer timer.Stop()
	_, err := jpeg.Decode(&ctxReader{ctx: ctx, data: bomb})
	t.Logf("the scan bomb without cuts at scans: returned %v after the cancel (%v)", time.Since(start)-bombAt, err)
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
