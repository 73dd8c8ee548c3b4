//go:build unix

package desktop

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"parley/media/mediatest"
)

// TestRefusedClipboardImageIsReleased: a clipboard image refused after it
// was read (over the 256 MB cap) leaves nothing held behind: the bytes
// read are given back at once, where they stayed in the heap (384 MB after
// a 300 MB image, 512 MB allocated to read it) until a collection that an
// idle chat may not reach for minutes. Images refused from their first
// bytes (not an image, a header over the budget) are not read on: the tool
// is stopped after 64 KB.
func TestRefusedClipboardImageIsReleased(t *testing.T) {
	f := newFakes(t)
	claim := mediatest.ClaimPNG(t, 100000, 100000, 8, mediatest.RGBA)
	f.file("claim.png", claim)
	f.add("wl-paste", `[ "$1" = --list-types ] && { echo image/png; exit 0; }
case "$WHAT" in
big) printf '\211PNG\r\n\032\n'; exec /usr/bin/head -c 300000000 /dev/zero ;;
zeros) exec /bin/cat /dev/zero ;;
claim) /bin/cat "$T/claim.png"; exec /bin/cat /dev/zero ;;
esac`)
	cases := []struct {
		what, want string
		maxRead    uint64 // the most the read may allocate
	}{
		{"big", "it is larger than parley reads (268.4 MB)", 400 << 20},
		{"zeros", "wl-paste gave data of an unknown kind, not a PNG, JPEG, WEBP or GIF image", 1 << 20},
		{"claim", "it is 100000x100000 pixels (40.0 GB decoded), more than parley decodes", 1 << 20},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			t.Setenv("WHAT", c.what)
			sys := f.system("linux", waylandEnv())
			// This test is about memory, not time: piping 300 MB through the
			// fake tool takes longer than the fakes' usual 5 s on a loaded
			// CI machine under -race, and a timeout would hide the refusal.
			sys.Timeout = 2 * time.Minute
			var err error
			start := time.Now()
			a := mediatest.Measure(func() { _, err = sys.ReadClipboard(context.Background()) })
			took := time.Since(start)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "cannot paste the clipboard's image: ") {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			t.Logf("refused in %v: %d MB allocated, peak %d MB; heap in use after: %d MB", took, a.Total>>20, a.Peak>>20, ms.HeapInuse>>20)
			if a.Total > c.maxRead {
				t.Errorf("reading it allocated %d MB, want at most %d MB", a.Total>>20, c.maxRead>>20)
			}
			if ms.HeapInuse > 32<<20 {
				t.Errorf("%d MB of heap still in use after the refusal", ms.HeapInuse>>20)
			}
		})
	}
}
