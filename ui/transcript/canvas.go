package transcript

import (
	"strings"
	"time"

	"charm.land/glamour/v2/ansi"
	xansi "github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/termsafe"
	"parley/ui/cells"
)

// canvas is what every item renderer draws with: the width and style
// generation a rendering is made for, the styles, how text is laid out for
// the terminal (the prose width, grapheme clusters or their parts), the
// Markdown engine of that width and style, and the parts of a message that
// look the same whatever its kind (the head with its marks, the state of a
// turn that did not simply finish).
type canvas struct {
	w int
	// gen counts restyles: renderings are cached per (width, gen). It is
	// the transcript's own count, not the context's StyleGen, so that a
	// Restyle for a key map change (the retry hint) renders again too.
	gen int

	look     look
	glamour  ansi.StyleConfig
	retryKey string // "ctrl+r": the hint under a failed reply
	blank    string // one empty line of the current width

	eng          *engine // Markdown renderer for (engW, engGen)
	engW, engGen int
	maxProse     int           // the widest lines of text (0: the full width)
	syncBudget   time.Duration // a render's budget on the Update goroutine
	naive        bool          // re-render the whole reply every frame (benchmark baseline)
	graphemes    bool          // the terminal measures by grapheme cluster (graphemes.go)
	now          func() time.Time
}

// setWidth sets the width renderings are made for.
func (c *canvas) setWidth(w int) {
	c.w = w
	c.blank = blankLine(w)
}

// engine returns the Markdown renderer for the current width and style.
func (c *canvas) engine() *engine {
	if c.eng == nil || c.engW != c.w || c.engGen != c.gen {
		c.eng = newEngine(c.mdWidth(), c.glamour, c.syncBudget)
		c.engW, c.engGen = c.w, c.gen
	}
	return c.eng
}

// mdWidth is the width replies are laid out at: the room right of the
// reply indent, at most the prose width. Code and tables share it: a
// terminal has no sideways scrolling, and a column that changes width from
// block to block reads worse than a wrapped line of code.
func (c *canvas) mdWidth() int {
	return c.proseRoom(max(c.w-len(replyIndent), 1))
}

// proseRoom caps a room for text at the prose width.
func (c *canvas) proseRoom(room int) int {
	if c.maxProse > 0 {
		return min(room, c.maxProse)
	}
	return room
}

// lay is text as laid out for the terminal (graphemes.go).
func (c *canvas) lay(s string) string {
	if c.graphemes {
		return s
	}
	return cells.Parts(s)
}

// wrap is wrapPlain for text as the terminal measures it (see lay).
func (c *canvas) wrap(text string, room int, style func(...string) string) []string {
	return wrapPlain(c.lay(text), room, style)
}

// head renders the blank separator and the label line: the kind's label,
// then the tree's marks (sel: the message cursor is on it).
func (c *canvas) head(it *item, label string, sel bool, dst []string) []string {
	dst = append(dst, c.blank)
	it.draw().selMark = sel
	label += c.treeMarks(it, sel)
	// A very long model name must not push the line past the width.
	if xansi.StringWidth(label) > c.w {
		label = xansi.Truncate(label, c.w, "…")
	}
	return fitLine(dst, "", 0, label, c.w)
}

// stateFoot renders how a turn that did not simply finish ended (a reply
// or an image turn): interrupted or failed, with the retry hint when
// it.d.retry says it shows, and the gateway's reason for stopping.
func (c *canvas) stateFoot(it *item, dst []string) []string {
	lk := &c.look
	w := c.w
	m := it.msg
	room := w - len(replyIndent)
	switch m.State {
	case conversation.StateInterrupted:
		line := lk.badge.Render(interrupted)
		if it.d != nil && it.d.retry {
			line += lk.hint.Render(" · " + c.retryKey + " to regenerate")
		}
		dst = fitLine(dst, replyIndent, len(replyIndent), xansi.Truncate(line, room, "…"), w)
	case conversation.StateFailed:
		msg := termsafe.Sanitize(m.Err)
		if strings.TrimSpace(msg) == "" {
			msg = "The reply failed without a reason from the gateway."
		}
		for k, l := range c.wrap(msg, room-errorMarkW, lk.errText.Render) {
			mark := lk.errMark.Render(errorMark)
			if k > 0 {
				mark = errorMarkPad
			}
			dst = fitLine(dst, replyIndent+mark, len(replyIndent)+errorMarkW, l, w)
		}
		if it.d != nil && it.d.retry {
			for _, l := range c.wrap(c.retryKey+" to retry", room, lk.hint.Render) {
				dst = fitLine(dst, replyIndent, len(replyIndent), l, w)
			}
		}
	}
	var note string
	switch m.FinishReason {
	case "length":
		note = lengthNote
	case "content_filter":
		note = filterNote
	}
	if note != "" {
		for _, l := range c.wrap(noteMark+note, room, lk.note.Render) {
			dst = fitLine(dst, replyIndent, len(replyIndent), l, w)
		}
	}
	return dst
}
