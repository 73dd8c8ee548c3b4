package ui

import (
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
	h.wait("the chip", func() bool { return len(h.m.comp.attachments) == 1 })
	h.srv.Enqueue(apitest.Reply{Text: "a gradient"})
	h.typeText("what is this?")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	h.wait("the picture", func() bool { return strings.Contains(h.m.View().Content, "▀") })
	live := pictureRows(h.screen())
	flush(t, h)
	id := h.m.conv.ID()

	again := newHarness(t, 120, 40, withHistory(History{Store: st, SessionID: id}))
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.m.conv.ID() == id && again.m.hist.loading == "" })
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

// The image pane of a reopened session lists its images with their
// pictures and the file the history keeps each in: o and c work on them.
func TestReopenedSessionsImagePane(t *testing.T) {
	st := openStore(t)
	h := newHarness(t, 140, 40, withHistory(History{Store: st}))
	for i, size := range [][2]int{{64, 48}, {40, 30}} {
		img := pngFile(t, t.TempDir(), size[0], size[1])
		h.typeText("/attach " + img)
		h.key("enter")
		h.wait("the chip", func() bool { return len(h.m.comp.attachments) == 1 })
		h.srv.Enqueue(apitest.Reply{Text: "seen"})
		h.typeText("look " + itoa(i))
		h.key("enter")
		h.wait("the reply", func() bool { return !h.streaming() })
	}
	flush(t, h)
	id := h.m.conv.ID()
	again := newHarness(t, 140, 40, withHistory(History{Store: st, SessionID: id}), func(o *Options) { o.Clipboard = h.m.opts.Clipboard })
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.m.conv.ID() == id && again.m.hist.loading == "" })
	again.key("alt+i")
	p, ok := again.m.imagePaneFocused()
	if !ok {
		t.Fatal("no image pane")
	}
	again.wait("both images with a preview", func() bool { return p.p.Len() == 2 && p.shown != nil })
	sel, _ := p.p.Selected()
	if sel.Path == "" || sel.Path != st.BlobPath(sel.Key) {
		t.Fatalf("the image's file is %q", sel.Path)
	}
	again.key("c")
	again.wait("the path copied", func() bool { return strings.Contains(again.screen(), "path copied") })
}
