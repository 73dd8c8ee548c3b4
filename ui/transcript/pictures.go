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

// SetPictures turns pictures under sent images on or off (images = "off",
// --no-images). The messages are laid out again.
func (t *Transcript) SetPictures(on bool) {
	if t.picturesOn == on {
		return
	}
	t.picturesOn = on
	t.gen++
	t.invalidate()
	t.ensureWindow()
}

// ForgetPictures drops every picture made so far (the way pictures are
// drawn changed): the messages ask for them again.
func (t *Transcript) ForgetPictures() {
	t.pics, t.wantPics = nil, nil
	t.gen++
	t.invalidate()
	t.ensureWindow()
}

// TakePictureRequests returns the pictures the transcript asked for since
// the last call. The root makes them (in commands) and hands each back
// with SetPicture.
func (t *Transcript) TakePictureRequests() []PictureRequest {
	out := t.wantPics
	t.wantPics = nil
	return out
}

// SetPicture gives the lines of a picture (nil: it cannot be made, and the
// chip alone stands for the image). The messages showing it are drawn
// again; their height changes only when the picture could not be made.
func (t *Transcript) SetPicture(k PictureKey, lines []string) {
	if t.pics == nil {
		t.pics = map[PictureKey]pictureState{}
	}
	t.pics[k] = pictureState{lines: lines, done: true}
	for i, it := range t.items {
		if !(it.isUser() || it.msg.IsImages()) || !t.fresh(it) || !it.shows(k) {
			continue
		}
		old := t.hs.get(i)
		it.foot = t.renderFoot(it, it.foot[:0])
		t.setHeight(i, old, false)
	}
}

// pictureBox is the box the picture of a takes at the current width, and
// false when a shows no picture (a link, an image of unknown size, or
// pictures off).
func (t *Transcript) pictureBox(a api.Attachment) (PictureKey, bool) {
	if !t.picturesOn || len(a.Data) == 0 || a.Width <= 0 || a.Height <= 0 {
		return PictureKey{}, false
	}
	var k PictureKey
	if n, err := hex.Decode(k.Sum[:], []byte(a.SHA256)); err != nil || n != len(k.Sum) {
		return PictureKey{}, false
	}
	room := t.proseRoom(t.w - userBarW)
	if room < 4 {
		return PictureKey{}, false
	}
	k.Cols, k.Rows = preview.FitCells(a.Width, a.Height, min(room, pictureMaxCols), pictureMaxRows)
	return k, true
}

// pictureLines returns the lines of a's picture, or blank lines of the
// same box while it is being made (asking for it the first time).
func (t *Transcript) pictureLines(a api.Attachment) []string {
	k, ok := t.pictureBox(a)
	if !ok {
		return nil
	}
	st, known := t.pics[k]
	if !known {
		if t.pics == nil || len(t.pics) >= maxPictures {
			// Pictures of old widths pile up over resizes; the root's
			// cache makes the ones still shown again at once.
			t.pics = map[PictureKey]pictureState{}
		}
		t.pics[k] = pictureState{}
		t.wantPics = append(t.wantPics, PictureRequest{Key: k, Data: a.Data})
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

// shows reports whether it (a user message or an image turn) shows the
// picture k.
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
