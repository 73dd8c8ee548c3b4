package transcript

import (
	"encoding/hex"

	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/termsafe"
	"parley/ui/preview"
)

// The images a user sent are shown under the message, each below its
// chip, in a box of at most pictureMaxCols×pictureMaxRows cells. The box
// is known from the image's pixel size before any picture is made, so the
// message has its final height at once and nothing moves when the picture
// arrives.
const (
	pictureMaxCols = 48
	pictureMaxRows = 12
	maxPictures    = 256
)

// PictureKey names one picture: an image (by SHA-256) drawn into a box of
// cells.
type PictureKey struct {
	Sum        [32]byte
	Cols, Rows int
}

// PictureRequest is a picture the transcript is waiting for, with the
// bytes to make it from.
type PictureRequest struct {
	Key  PictureKey
	Data []byte
}

// pictureState is what the transcript knows of a picture: its lines once
// made, or that it could not be made (nil lines, done).
type pictureState struct {
	lines []string
	done  bool
}

// pictures are the pictures of the images users sent and image turns
// made, as the item renderers draw them: whether they are shown, the ones
// made so far by box, and the ones asked for since the root last took
// them. The root makes them (in commands) from the requests and hands each
// back (Transcript.SetPicture).
type pictures struct {
	*canvas
	on   bool
	pics map[PictureKey]pictureState
	want []PictureRequest
}

// take returns the pictures asked for since the last call.
func (p *pictures) take() []PictureRequest {
	out := p.want
	p.want = nil
	return out
}

// forget drops every picture made or asked for.
func (p *pictures) forget() { p.pics, p.want = nil, nil }

// set records the lines of picture k (nil: it cannot be made).
func (p *pictures) set(k PictureKey, lines []string) {
	if p.pics == nil {
		p.pics = map[PictureKey]pictureState{}
	}
	p.pics[k] = pictureState{lines: lines, done: true}
}

// estimate is how many lines the chips and pictures of atts take.
func (p *pictures) estimate(atts []api.Attachment) int {
	n := len(atts)
	for _, a := range atts {
		if k, ok := p.box(a); ok {
			n += k.Rows
		}
	}
	return n
}

// box is the box the picture of a takes at the current width, and
// false when a shows no picture (a link, an image of unknown size, or
// pictures off).
func (p *pictures) box(a api.Attachment) (PictureKey, bool) {
	if !p.on || len(a.Data) == 0 || a.Width <= 0 || a.Height <= 0 {
		return PictureKey{}, false
	}
	var k PictureKey
	if n, err := hex.Decode(k.Sum[:], []byte(a.SHA256)); err != nil || n != len(k.Sum) {
		return PictureKey{}, false
	}
	room := p.proseRoom(p.w - userBarW)
	if room < 4 {
		return PictureKey{}, false
	}
	k.Cols, k.Rows = preview.FitCells(a.Width, a.Height, min(room, pictureMaxCols), pictureMaxRows)
	return k, true
}

// lines returns the lines of a's picture, or blank lines of the
// same box while it is being made (asking for it the first time).
func (p *pictures) lines(a api.Attachment) []string {
	k, ok := p.box(a)
	if !ok {
		return nil
	}
	st, known := p.pics[k]
	if !known {
		if p.pics == nil || len(p.pics) >= maxPictures {
			// Pictures of old widths pile up over resizes; the root's
			// cache makes the ones still shown again at once.
			p.pics = map[PictureKey]pictureState{}
		}
		p.pics[k] = pictureState{}
		p.want = append(p.want, PictureRequest{Key: k, Data: a.Data})
	}
	if st.done && st.lines == nil {
		return nil
	}
	if len(st.lines) == k.Rows {
		return st.lines
	}
	blank := make([]string, k.Rows)
	return blank
}

// shows reports whether it (a user message, an image turn, a reply with
// the images its model made) shows the picture k.
func (it *item) shows(k PictureKey) bool {
	want := hex.EncodeToString(k.Sum[:])
	for _, a := range it.msg.Attachments {
		if a.SHA256 == want {
			return true
		}
	}
	return false
}

// pictureLine puts a picture's line under the user bar. The line is the
// preview renderer's own (colours and, for kitty, placeholder characters
// of exactly the box's width): it is cut, never wrapped, since wrapping
// would break the picture, and filtered like every line.
func pictureLine(bar, l string, w int) string {
	l = termsafe.KeepSGR(l)
	if lw := ansi.StringWidth(l); userBarW+lw > w {
		l = ansi.Truncate(l, max(w-userBarW, 0), "")
	}
	return finishLine(bar, l, max(w-userBarW-ansi.StringWidth(l), 0))
}

// SetPictures turns pictures under sent images on or off (images = "off",
// --no-images). The messages are laid out again.
func (t *Transcript) SetPictures(on bool) {
	if t.pics.on == on {
		return
	}
	t.pics.on = on
	t.c.gen++
	t.list.invalidate()
	t.list.ensureWindow()
}

// ForgetPictures drops every picture made so far (the way pictures are
// drawn changed): the messages ask for them again.
func (t *Transcript) ForgetPictures() {
	t.pics.forget()
	t.c.gen++
	t.list.invalidate()
	t.list.ensureWindow()
}

// TakePictureRequests returns the pictures the transcript asked for since
// the last call. The root makes them (in commands) and hands each back
// with SetPicture.
func (t *Transcript) TakePictureRequests() []PictureRequest { return t.pics.take() }

// SetPicture gives the lines of a picture (nil: it cannot be made, and the
// chip alone stands for the image). The messages showing it are drawn
// again; their height changes only when the picture could not be made.
func (t *Transcript) SetPicture(k PictureKey, lines []string) {
	t.pics.set(k, lines)
	l := &t.list
	for i, it := range l.items {
		if !t.r.fresh(it) || !it.shows(k) {
			continue
		}
		old := l.hs.get(i)
		it.d.foot = t.r.renderFoot(it, it.d.foot[:0]) // fresh: it has lines
		l.setHeight(i, old, false)
	}
}
