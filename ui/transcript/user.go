package transcript

import "github.com/charmbracelet/x/ansi"

// userView renders a user's message: a bar in the user colour on every
// line, the text as typed (no Markdown), and under it a chip for each
// attachment with the picture of a sent image.
type userView struct {
	*canvas
	pics *pictures
}

func (u *userView) label(*item) string {
	return u.userBar() + u.look.userLabel.Render(userLabel)
}

// userBar is the coloured bar and space that start every line of a user turn.
func (c *canvas) userBar() string {
	return c.look.bar.Render(c.look.barChar) + " "
}

// paintBody wraps the user's text as typed (no Markdown).
func (u *userView) paintBody(it *item, _ bool) {
	dst := it.d.body[:0]
	bar := u.userBar()
	for _, l := range u.wrap(it.d.text, u.proseRoom(u.w-userBarW), u.look.userText.Render) {
		dst = fitLine(dst, bar, userBarW, l, u.w)
	}
	it.d.body = dst
}

// foot is the attachments' chips, each with its picture.
func (u *userView) foot(it *item, dst []string) []string {
	lk := &u.look
	w := u.w
	bar := u.userBar()
	room := w - userBarW - lk.chip.GetHorizontalFrameSize()
	for _, a := range it.msg.Attachments {
		dst = fitLine(dst, bar, userBarW, lk.chip.Render(ansi.Truncate(u.lay(chip(a)), max(room, 1), "…")), w)
		for _, l := range u.pics.lines(a) {
			dst = append(dst, pictureLine(bar, l, w))
		}
	}
	return dst
}

func (u *userView) extra(it *item) int { return u.pics.estimate(it.msg.Attachments) }
