package imagegen

import (
	"context"
	"errors"
	"image"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/media"
	"parley/media/mediatest"
)

// TestRunRefusesAScanBomb: a generated image that is a JPEG of 2,000
// scans (33 s of CPU per decode, and the chat decoded it twice) is refused
// from its markers in milliseconds, with one sentence, and nothing is
// saved.
func TestRunRefusesAScanBomb(t *testing.T) {
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Path: "/images/generations", Images: [][]byte{mediatest.ScanBombJPEG(7000, 7000, 2000)}})
	dir := filepath.Join(t.TempDir(), "out")
	j, err := Plan(api.NewCatalog(nil), Request{Prompt: "a bomb", Model: "gpt-image-1", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Run(context.Background(), client(t, gw), j, time.Now(), nil)
	took := time.Since(start)
	want := "the gateway's image 1 of 1 is a JPEG of 2000 scans, more than parley decodes (100), so nothing was saved; try again or ask for PNG"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if took > 2*time.Second || len(files(t, dir)) != 0 {
		t.Fatalf("took %v, saved %v", took, files(t, dir))
	}
	t.Logf("refused in %v", took)
}

// TestRunStopsWhileCheckingImages: esc (ctx) stops a run while it decodes
// the images to check them, not only while it waits for the gateway: a
// JPEG of 100 scans at 7000x7000 (the most parley decodes, about two
// seconds of CPU) is stopped within a scan of the cancel.
func TestRunStopsWhileCheckingImages(t *testing.T) {
	side := 7000
	if raceDetector {
		side = 2500
	}
	heavy := mediatest.ScanBombJPEG(side, side, media.MaxJPEGScans)
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Path: "/images/generations", Images: [][]byte{heavy}})
	dir := filepath.Join(t.TempDir(), "out")
	j, err := Plan(api.NewCatalog(nil), Request{Prompt: "heavy", Model: "gpt-image-1", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b := media.NewBudget(0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the decode holds the budget: it is past the request.
	go func() {
		for b.Held() == 0 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	var handed atomic.Int64
	start := time.Now()
	_, err = RunWith(ctx, client(t, gw), j, time.Now(), RunOptions{Budget: b, Decoded: func([]byte, image.Image) { handed.Add(1) }})
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want it stopped", err)
	}
	if n := handed.Load(); n != 0 || len(files(t, dir)) != 0 || b.Held() != 0 {
		t.Fatalf("after the cancel: %d images handed on, %v saved, %d bytes reserved", n, files(t, dir), b.Held())
	}
	t.Logf("stopped %v after the start (cancelled 200 ms into the decode)", took)
	if took > 1500*time.Millisecond {
		t.Errorf("took %v to stop", took)
	}
}
