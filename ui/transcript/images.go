package transcript

import (
	"fmt"
	"strings"

	"parley/api"
	"parley/conversation"
	"parley/termsafe"
	"parley/ui/cells"
)

// An image turn (images made or edited in the chat) reads like a reply
// from the image model: a label naming the model, the prompt, then each
// image's picture and the path it was saved to.
const (
	makingMark  = " · making…"
	imagesMark  = "▨ "
	pathMark    = "↳ "
	nothingSent = "nothing was saved"
)

// imagesLabel is the label line of an image turn: "▨ Images · gpt-image-1".
func imagesLabel(m *conversation.Message) string {
	what := "Images"
	if m.Image != nil && m.Image.From != "" {
		what = "Edit"
	}
	name := oneLine(termsafe.Sanitize(m.Model))
	if name == "" {
		return imagesMark + what
	}
	return imagesMark + what + " · " + name
}

// imageView renders an image turn (images made or edited in the chat):
// it reads like a reply from the image model, a label naming the model, the
// prompt, then each image's picture and the path it was saved to.
type imageView struct {
	*canvas
	pics *pictures
}

func (v *imageView) label(it *item) string {
	label := v.look.replyLabel.Render(imagesLabel(it.msg))
	if it.msg.State == conversation.StateStreaming {
		label += v.look.streaming.Render(makingMark)
	}
	return label
}

// paintBody draws the prompt, as typed, with what was asked for.
func (v *imageView) paintBody(it *item, _ bool) {
	dst := it.d.body[:0]
	room := v.proseRoom(v.w - len(replyIndent))
	for _, l := range v.wrap(it.d.text, room, v.look.userText.Render) {
		dst = fitLine(dst, replyIndent, len(replyIndent), l, v.w)
	}
	var asked []string
	if turn := it.msg.Image; turn != nil {
		if turn.From != "" {
			asked = append(asked, "from "+oneLine(termsafe.Sanitize(turn.From)))
		}
		if turn.Size != "" {
			asked = append(asked, oneLine(termsafe.Sanitize(turn.Size)))
		}
		if turn.N > 1 {
			asked = append(asked, fmt.Sprintf("%d images", turn.N))
		}
	}
	if len(asked) > 0 {
		for _, l := range v.wrap(strings.Join(asked, " · "), room, v.look.meta.Render) {
			dst = fitLine(dst, replyIndent, len(replyIndent), l, v.w)
		}
	}
	it.d.body = dst
}

// foot is the images made, then how the turn ended when it did not simply
// finish.
func (v *imageView) foot(it *item, dst []string) []string {
	return v.stateFoot(it, v.made(it, dst))
}

func (v *imageView) extra(it *item) int { return v.pics.estimate(it.msg.Attachments) }

// made draws each image made: its picture, then where it was
// saved; then what the saving had to say. A turn that did not finish says
// that nothing was saved (its state line follows).
func (v *imageView) made(it *item, dst []string) []string {
	lk := &v.look
	w := v.w
	room := max(w-len(replyIndent), 1)
	m := it.msg
	switch m.State {
	case conversation.StateInterrupted, conversation.StateFailed:
		if len(m.Attachments) == 0 {
			return fitLine(dst, replyIndent, len(replyIndent), lk.meta.Render(nothingSent), w)
		}
	}
	dst = v.pictured(v.pics, m.Attachments, dst)
	if m.Image != nil {
		for _, n := range m.Image.Notes {
			for _, l := range v.wrap(noteMark+termsafe.Sanitize(n), room, lk.note.Render) {
				dst = fitLine(dst, replyIndent, len(replyIndent), l, w)
			}
		}
	}
	return dst
}

// pictured draws images a model made, each as its picture, then the path
// it was saved to: an image turn's, and those a reply carries.
func (c *canvas) pictured(pics *pictures, atts []api.Attachment, dst []string) []string {
	lk := &c.look
	w := c.w
	room := max(w-len(replyIndent), 1)
	for _, a := range atts {
		for _, l := range pics.lines(a) {
			dst = append(dst, pictureLine(replyIndent, l, w))
		}
		// The mark hangs before the path: it never stands alone on a
		// line, and a wrapped path continues under its first character.
		mark, markW := replyIndent+lk.meta.Render(pathMark), len(replyIndent)+cells.Width(pathMark)
		for i, l := range c.wrap(chipText(a), max(room-cells.Width(pathMark), 1), lk.meta.Render) {
			if i == 1 {
				mark = replyIndent + cells.Spaces(cells.Width(pathMark))
			}
			dst = fitLine(dst, mark, markW, l, w)
		}
	}
	return dst
}

// chipText is chip without its mark: the saved file's path, its pixel
// size and bytes.
func chipText(a api.Attachment) string { return strings.TrimPrefix(chip(a), chipMark) }
