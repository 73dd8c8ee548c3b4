package media

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"parley/media/mediatest"
)

// TestScanBombRefusedFromItsMarkers: a 7000x7000 progressive JPEG of 2,000
// scans (the file that cost 33 s of CPU as an attachment) is refused from
// its markers, before any pixel is allocated, in milliseconds, with one
// sentence naming the scans; one at the limit still decodes.
func TestScanBombRefusedFromItsMarkers(t *testing.T) {
	bomb := mediatest.ScanBombJPEG(7000, 7000, 2000)
	var err error
	start := time.Now()
	a := mediatest.Measure(func() {
		var release func()
		_, _, release, err = Decode(context.Background(), bomb, nil)
		release()
	})
	took := time.Since(start)
	var se *ScansError
	if !errors.As(err, &se) || se.Scans != 2000 || se.Limit != MaxJPEGScans {
		t.Fatalf("Decode: %v, want a *ScansError of 2000 scans", err)
	}
	if want := "the image is a JPEG of 2000 scans, more than parley decodes (100)"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if took > time.Second || a.Total > 1<<20 {
		t.Errorf("refusing a %d-byte scan bomb took %v and allocated %d bytes", len(bomb), took, a.Total)
	}
	t.Logf("%d-byte file of 2000 scans refused in %v, %d bytes allocated", len(bomb), took, a.Total)

	for _, scans := range []int{1, 2, MaxJPEGScans} {
		ok := mediatest.ScanBombJPEG(640, 480, scans)
		if _, err := jpeg.Decode(bytes.NewReader(ok)); err != nil {
			t.Fatalf("image/jpeg cannot decode the generator's %d-scan file: %v", scans, err)
		}
		img, info, release, err := Decode(context.Background(), ok, nil)
		release()
		if err != nil || img.Bounds().Dx() != 640 || info.Format != JPEG {
			t.Fatalf("%d scans: %v", scans, err)
		}
	}
	_, err = Inspect(mediatest.ScanBombJPEG(640, 480, MaxJPEGScans+1))
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "101 scans") {
		t.Fatalf("Inspect of %d scans: %v", MaxJPEGScans+1, err)
	}
}

// BenchmarkScanBomb: what the scan limit leaves. "at-limit" decodes the
// worst file parley accepts (7000x7000 grey, 100 scans, each visiting all
// 765,625 blocks); "refused" is the 2,000-scan bomb turned away from its
// markers. It reports CPU time too, steadier than wall time on a loaded
// machine.
func BenchmarkScanBomb(b *testing.B) {
	at := mediatest.ScanBombJPEG(7000, 7000, MaxJPEGScans)
	bomb := mediatest.ScanBombJPEG(7000, 7000, 2000)
	b.Run("at-limit", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			_, _, release, err := Decode(context.Background(), at, nil)
			release()
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	})
	b.Run("refused", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, release, err := Decode(context.Background(), bomb, nil); err == nil {
				release()
				b.Fatal("decoded")
			}
		}
	})
}

// TestJPEGWalkCountsScans: the walk finds the scans image/jpeg sees, past
// stuffed bytes, restart markers and fill bytes in entropy-coded data, in
// files of every kind the tests make.
func TestJPEGWalkCountsScans(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  []byte
		scans int
	}{
		{"Go's encoder", mediatest.JPEG(t, mediatest.Photo(300, 200), 90), 1},
		{"progressive", mediatest.FlatJPEG(300, 200, mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr420(), JFIF: true, Adobe: -1, Progressive: true}), 1},
		{"37 scans", mediatest.ScanBombJPEG(300, 200, 37), 37},
	} {
		l, err := jpegLayout(c.data)
		if err != nil || l.scans != c.scans || len(l.scanAt) != c.scans {
			t.Errorf("%s: %d scans at %v (%v), want %d", c.name, l.scans, l.scanAt, err, c.scans)
		}
		for _, at := range l.scanAt {
			if c.data[at] != 0xFF || c.data[at+1] != 0xDA {
				t.Errorf("%s: no SOS at %d", c.name, at)
			}
		}
	}
	// Entropy-coded data: 0xFF 0x00 is a stuffed byte, 0xFF 0xD0–0xD7 a
	// restart marker, 0xFF 0xFF… fill before a marker.
	ecs := []byte{0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xFF, 0xDA, 0x00}
	if got := nextMarker(ecs, 0); got != 9 {
		t.Errorf("nextMarker = %d, want 9 (the last fill byte before SOS)", got)
	}
	if got := nextMarker(ecs[:10], 0); got != 10 {
		t.Errorf("nextMarker of data ending in fill bytes = %d, want the end", got)
	}
	// A cut-off file is counted as far as it goes; the decoder reports it.
	bomb := mediatest.ScanBombJPEG(300, 200, 37)
	if l, err := jpegLayout(bomb[:len(bomb)/2]); err != nil || l.scans == 0 || l.scans >= 37 {
		t.Errorf("cut off: %d scans, %v", l.scans, err)
	}
}
