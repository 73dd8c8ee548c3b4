package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"parley/api/apitest"
)

// A reopened session shows the pictures of the images sent in it, and the
// image pane lists every image with its stored file.
func TestReopenedSessionShowsItsPictures(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 120, 40, withHistory(History{Store: st}))
	img := pngFile(t, t.TempDir(), 64, 48)
	h.typeText("/attach " + img)
	h.key("enter")
	h.wait("the chip", func() bool { return len(h.attached()) == 1 })
	h.srv.Enqueue(apitest.Reply{Text: "a gradient"})
	h.typeText("what is this?")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	h.wait("the picture", func() bool { return strings.Contains(h.m.View().Content, "▀") })
	live := pictureRows(h.screen())
	flush(t, h)
	id := h.eng.Conv().ID()

	again := newHarness(t, 120, 40, withHistory(History{Store: st, SessionID: id}))
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.eng.Conv().ID() == id && again.opening() == "" })
	again.wait("the picture", func() bool { return strings.Contains(again.m.View().Content, "▀") })
	if got := pictureRows(again.screen()); got != live {
		t.Fatalf("the reopened picture has %d rows, live %d:\n%s", got, live, again.screen())
	}
}

// pictureRows counts the screen's rows of half blocks.
func pictureRows(screen string) int {
	n := 0
	for _, l := range strings.Split(screen, "\n") {
		if strings.Count(l, "▀") > 8 {
			n++
		}
	}
	return n
}

// picturesAbove counts, for each caption of a made image (↳ path), the
// rows of half blocks drawn right above it: its picture.
func picturesAbove(screen string) []int {
	var out []int
	run := 0
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.Count(l, "▀") > 8:
			run++
		case strings.Contains(l, "↳ "):
			out = append(out, run)
			run = 0
		default:
			run = 0
		}
	}
	return out
}

// The image pane of a reopened session lists its images with their
// pictures and the file the history keeps each in: o and c work on them.
func TestReopenedSessionsImagePane(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 140, 40, withHistory(History{Store: st}))
	for i, size := range [][2]int{{64, 48}, {40, 30}} {
		img := pngFile(t, t.TempDir(), size[0], size[1])
		h.typeText("/attach " + img)
		h.key("enter")
		h.wait("the chip", func() bool { return len(h.attached()) == 1 })
		h.srv.Enqueue(apitest.Reply{Text: "seen"})
		h.typeText("look " + itoa(i))
		h.key("enter")
		h.wait("the reply", func() bool { return !h.streaming() })
	}
	flush(t, h)
	id := h.eng.Conv().ID()
	again := newHarness(t, 140, 40, withHistory(History{Store: st, SessionID: id}), func(o *Options) { o.Clipboard = h.copyToClipboard })
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.eng.Conv().ID() == id && again.opening() == "" })
	again.key("alt+i")
	p, ok := again.m.imagePaneFocused()
	if !ok {
		t.Fatal("no image pane")
	}
	again.wait("both images with a preview", func() bool { return p.Len() == 2 && again.panePicture() })
	sel, _ := p.Selected()
	if sel.Path == "" || sel.Path != st.BlobPath(sel.Key) {
		t.Fatalf("the image's file is %q", sel.Path)
	}
	// The list calls it by the name it was sent with, not its file's hash.
	if got := sel.DisplayName(); got != "shot.png" {
		t.Fatalf("the reopened image is called %q, not shot.png", got)
	}
	if scr := again.screen(); strings.Contains(scr, sel.Key[:12]) {
		t.Fatalf("the list names the image by its hash:\n%s", scr)
	}
	again.key("c")
	again.wait("the path copied", func() bool { return strings.Contains(again.screen(), "path copied") })
}

// A reopened session shows the pictures of the images /image made in it as
// live, and the image pane lists each with its preview and the file it was
// saved to, never as a pasted image without a file.
func TestReopenedSessionShowsItsGeneratedImages(t *testing.T) {
	st := openStore(t)
	pics := filepath.Join(t.TempDir(), "pics")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": pics, "HOME": t.TempDir()}
	getenv := func(o *Options) { o.Getenv = func(k string) string { return env[k] } }
	h := newHarness(t, 140, 50, withHistory(History{Store: st}), getenv)
	files := makeTwo(t, h, filepath.Join(pics, "parley"))
	h.wait("both pictures", func() bool { r := picturesAbove(h.screen()); return len(r) == 2 && r[0] > 0 && r[1] > 0 })
	live := picturesAbove(h.screen())
	flush(t, h)
	id := h.eng.Conv().ID()

	again := newHarness(t, 140, 50, withHistory(History{Store: st, SessionID: id}), getenv)
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.eng.Conv().ID() == id && again.opening() == "" })
	again.wait("both pictures as live", func() bool { return slices.Equal(picturesAbove(again.screen()), live) })
	for _, f := range files {
		if !strings.Contains(again.screen(), filepath.Base(f)) {
			t.Fatalf("the reopened transcript does not name %s:\n%s", filepath.Base(f), again.screen())
		}
	}

	again.key("alt+i")
	p, ok := again.m.imagePaneFocused()
	if !ok {
		t.Fatal("no image pane")
	}
	again.wait("both images with a preview", func() bool { return p.Len() == 2 && again.panePicture() })
	want := map[string]bool{files[0]: true, files[1]: true}
	for i := range 2 {
		sel, _ := p.Selected()
		if !want[sel.Path] {
			t.Fatalf("the image's file is %q, want one of %v", sel.Path, files)
		}
		delete(want, sel.Path)
		scr := again.screen()
		if strings.Contains(scr, "not saved yet") || !strings.Contains(scr, "path ") || !strings.Contains(scr, filepath.Base(sel.Path)) {
			t.Fatalf("the details do not show the stored file %s:\n%s", sel.Path, scr)
		}
		if i == 1 {
			break
		}
		again.key("down")
		// The other image's preview is not made yet: the pane waits for
		// it (a "…" where it goes), then shows it.
		if again.panePicture() {
			t.Fatalf("the pane still shows the last image's preview after a move:\n%s", again.screen())
		}
		again.wait("the next preview", again.panePicture)
	}
}
