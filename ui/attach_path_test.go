package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An attached file keeps its path in the image pane (o and c work on it,
// without history too); a text file is not an image there, and its
// chip says its lines and size.
func TestAttachedFileKeepsItsPathInThePane(t *testing.T) {
	h := newHarness(t, 140, 40)
	img := pngFile(t, t.TempDir(), 40, 30)
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notes, []byte("# notes\n\nline two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.typeText("/attach " + img + " " + notes)
	h.key("enter")
	h.wait("two chips", func() bool { return len(h.attached()) == 2 })
	// Name, lines and size: the file is 18 bytes.
	if !strings.Contains(h.screen(), "2 ≡ notes.md · 3 lines · 18 B") {
		t.Fatalf("the text file's chip:\n%s", h.screen())
	}
	h.key("alt+i")
	p, ok := h.m.imagePaneFocused()
	if !ok {
		t.Fatal("no image pane")
	}
	h.wait("the pane's list", func() bool { return p.Len() > 0 })
	if p.Len() != 1 {
		t.Fatalf("the pane lists %d items, want the image alone", p.Len())
	}
	sel, _ := p.Selected()
	if abs, _ := filepath.Abs(img); sel.Path != abs {
		t.Fatalf("the attached image's path is %q, want %q", sel.Path, abs)
	}
	h.key("c")
	h.wait("the path copied", func() bool { return strings.Contains(h.screen(), "path copied") })
}
