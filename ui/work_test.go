package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/media/mediatest"
)

// TestEscStopsAttaching: esc while pasted images are being prepared stops
// their decoding at once; nothing is attached and the paste stays as text.
func TestEscStopsAttaching(t *testing.T) {
	dir := t.TempDir()
	var quoted []string
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("heavy %d.jpg", i))
		if err := os.WriteFile(p, mediatest.ScanBombJPEG(5000+i, 5000, 100), 0o600); err != nil {
			t.Fatal(err)
		}
		quoted = append(quoted, "'"+p+"'")
	}
	h := newHarness(t, 100, 30)
	paste := strings.Join(quoted, " ")
	h.send(tea.PasteMsg{Content: paste})
	h.wait("the decoding", func() bool { return h.m.pics.cache.Budget().Held() > 0 })
	start := time.Now()
	h.key("esc")
	h.wait("the stop", func() bool { return !h.attaching() && h.draft() == paste })
	h.wait("the budget back", func() bool { return h.m.pics.cache.Budget().Held() == 0 })
	t.Logf("stopped %v after esc", time.Since(start))
	if len(h.attached()) != 0 {
		t.Fatalf("%d attached after esc", len(h.attached()))
	}
}
