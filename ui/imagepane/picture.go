package imagepane

import (
	"encoding/hex"
	"fmt"

	"parley/ui/preview"
	"parley/ui/sidepane"
)

// previewState is the selected image's preview: what it needs (the
// item's key, its bytes, and the box, set by Draw), what the chat was
// asked to make, and what is shown. The pane never decodes: the chat
// makes the picture in a command (WantedPicture) and hands it back
// (TakePicture).
type previewState struct {
	// on says whether previews are drawn at all (images = "off").
	on bool
	// needKey is the item need was looked up for; need is its bytes and
	// their hash (Data nil when they are not at hand); w, h the box of
	// the last Draw (0 when no picture is wanted).
	needKey string
	need    preview.Source
	w, h    int
	// asked names the picture being made; shownKey the one shown, whose
	// lines are shown.
	asked    string
	shownKey string
	shown    []string
}

// previewFor is the selected image's preview for a pane of w×h cells, nil
// until it has been made; it notes which one is needed.
func (p *Pane) previewFor(w, h int) []string {
	pv := &p.pv
	pv.w, pv.h = 0, 0
	it, ok := p.Selected()
	if !ok {
		return nil
	}
	_, _, pw, ph := p.previewArea(w, h)
	if it.Key != pv.needKey {
		// Looked up once per selection, not on every frame: the lookup
		// walks the conversation.
		pv.needKey, pv.need = it.Key, preview.Source{}
		if a, ok := findImage(p.conv, p.pending, it.Key); ok {
			src := preview.Source{Data: a.Data}
			if n, err := hex.Decode(src.Sum[:], []byte(a.SHA256)); err == nil && n == len(src.Sum) {
				pv.need = src
			}
		}
	}
	if pv.need.Data == nil || pw < 4 || ph < 2 || !pv.on {
		return nil
	}
	pv.w, pv.h = pw, ph
	if previewKey(pv.need.Sum, pw, ph) == pv.shownKey {
		return pv.shown
	}
	return nil
}

// WantedPicture is the preview the last Draw needs and that is neither
// shown nor being made; it is named once (asked again only after a
// Picture that says it was stopped).
func (p *Pane) WantedPicture() (sidepane.PictureRequest, bool) {
	pv := &p.pv
	if pv.need.Data == nil || pv.w == 0 {
		return sidepane.PictureRequest{}, false
	}
	k := previewKey(pv.need.Sum, pv.w, pv.h)
	if k == pv.shownKey || k == pv.asked {
		return sidepane.PictureRequest{}, false
	}
	pv.asked = k
	return sidepane.PictureRequest{Key: k, Src: pv.need, W: pv.w, H: pv.h}, true
}

// TakePicture shows a preview the chat made (a kitty picture has been
// sent to the terminal first), or the sentence saying why it could not be
// made where the preview goes.
func (p *Pane) TakePicture(pic sidepane.Picture) {
	pv := &p.pv
	if pv.asked == pic.Key {
		pv.asked = ""
	}
	if pic.Stopped {
		return // named again while it is still wanted
	}
	if pic.Failed != "" {
		if it, ok := p.Selected(); ok {
			p.setPreviewError(it.Key, pic.Failed)
		}
		return
	}
	pv.shownKey, pv.shown = pic.Key, pic.Lines
}

// previewKey names a picture of the image whose SHA-256 is sum drawn in
// w×h cells.
func previewKey(sum [32]byte, w, h int) string {
	return fmt.Sprintf("%x/%dx%d", sum[:8], w, h)
}
