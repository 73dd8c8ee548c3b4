package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/config"
	"parley/media"
	"parley/media/mediatest"
	"parley/ui/sidepane"
)

// TestPastedPathsBeyondTheCountAreNotRead: a paste of 100 real image
// files, each one that has to be decoded and scaled, attaches the first
// attach_max_count (10) and refuses the other 90 at once, before any of
// them is decoded: the work is ten images' worth, where it was a hundred
// (144 s of CPU and 785 MB to keep 10). The message names the count.
func TestPastedPathsBeyondTheCountAreNotRead(t *testing.T) {
	const n = 100
	dir := t.TempDir()
	quoted := make([]string, n)
	var decoded int64
	for i := range n {
		data := mediatest.ZeroPNG(t, 600+i, 400, 8, mediatest.RGBA, false, false)
		info, err := media.Inspect(data)
		if err != nil {
			t.Fatal(err)
		}
		decoded = max(decoded, info.Decoded)
		p := filepath.Join(dir, fmt.Sprintf("shot %03d.png", i))
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		quoted[i] = "'" + p + "'"
	}
	// Every image is over attach_max_side, so each one attached is decoded
	// and scaled.
	cfg := &config.Config{AttachMaxSide: 512}
	h := newHarness(t, 100, 30, func(o *Options) { o.Config = cfg })
	limit := h.opts.maxAttachments()
	start := time.Now()
	a := mediatest.Measure(func() {
		h.send(tea.PasteMsg{Content: strings.Join(quoted, " ")})
		h.wait("the attachments", func() bool { return len(h.attached()) == limit })
		h.wait("the paste's end", func() bool { return !h.attaching() })
	})
	took := time.Since(start)
	if got := len(h.attached()); got != limit {
		t.Fatalf("%d attached, want %d", got, limit)
	}
	if h.draft() != "" {
		t.Errorf("the paste went into the composer as text: %.80q", h.draft())
	}
	if a := h.attached()[0]; !a.Resized || a.Width != 512 {
		t.Fatalf("the first image was not scaled: %s", a.Describe())
	}
	want := fmt.Sprintf("a message carries at most %d attachments (attach_max_count); %d of the %d files were not attached", limit, n-limit, n)
	if !h.logged(want) {
		t.Errorf("no notice %q", want)
	}
	// Each attached image is decoded once (about its Decoded) and scaled;
	// a hundred decodes would be ten times this bound.
	if bound := uint64(3 * int64(limit) * decoded); a.Total > bound {
		t.Errorf("the paste allocated %d MB, more than %d images' worth (%d MB)", a.Total>>20, limit, bound>>20)
	}
	t.Logf("%d pasted, %d attached in %v: %d MB allocated, peak %d MB (each image decodes to %d MB)",
		n, limit, took, a.Total>>20, a.Peak>>20, decoded>>20)
}

// logged reports whether the notices log holds text.
func (h *harness) logged(text string) bool {
	return slices.ContainsFunc(h.said(), func(n sidepane.Notice) bool { return n.Text == text })
}
