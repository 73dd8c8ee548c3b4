package columns

import (
	"context"
	"strings"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/mdstream"
)

// jobWait bounds a render Frame leaves to a job: the view renders it at
// once, on the owner's goroutine, and what does not fit shows plain until
// the next frame tries again (a compare's answers are chat-sized).
const jobWait = 30 * time.Millisecond

// column is one reply's rendering: its answer made safe as it streams
// into a Markdown document, the lines last rendered, and where it is
// scrolled.
type column struct {
	id   int
	safe termsafe.MarkdownStream
	// fed is how much of the reply's text went into doc.
	fed      int
	doc      *mdstream.Doc
	finished bool
	// body is the answer's lines at the renderer's width; dirty says doc
	// changed since.
	body  []string
	dirty bool
	// fit are body's lines made exactly fitW cells, each made again only
	// when its line changed: a frame draws every column's window, and
	// measuring styled lines is most of what drawing costs.
	fit, fitSrc []string
	fitW        int
	// top is the first line shown when not following the end.
	top    int
	follow bool
}

func newColumn(id int) *column {
	return &column{id: id, doc: &mdstream.Doc{}, follow: true, dirty: true}
}

// sync takes what the reply gained since the last call; a reply that
// ended finishes its document.
func (c *column) sync(r Reply) {
	if len(r.Text) > c.fed {
		if s := c.safe.Write(r.Text[c.fed:]); s != "" {
			c.doc.Append(s)
		}
		c.fed = len(r.Text)
		c.dirty = true
	}
	if !r.inFlight() && !c.finished {
		if s := c.safe.Flush(); s != "" {
			c.doc.Append(s)
		}
		c.doc.Finish()
		c.finished = true
		c.dirty = true
	}
}

// render brings body up to date at ren, doing at most a frame's work;
// it reports whether the lines changed.
func (c *column) render(ren *mdstream.Renderer) bool {
	if !c.dirty {
		return false
	}
	lines, next := c.doc.Frame(ren)
	c.dirty = false
	switch next {
	case mdstream.Again:
		c.dirty = true
	case mdstream.NeedJob:
		if j := c.doc.Job(ren); j != nil {
			ctx, cancel := context.WithTimeout(context.Background(), jobWait)
			j.Run(ctx)
			cancel()
			c.doc.Apply(j)
			lines, _ = c.doc.Frame(ren)
		}
	}
	c.body = trimBlank(lines)
	return true
}

// fitted is body's lines, each exactly w cells.
func (c *column) fitted(w int) []string {
	if c.fitW != w {
		c.fit, c.fitW = c.fit[:0], w
	}
	k := 0
	for k < len(c.fit) && k < len(c.body) && c.fitSrc[k] == c.body[k] {
		k++
	}
	c.fit, c.fitSrc = c.fit[:k], c.fitSrc[:k]
	for _, l := range c.body[k:] {
		c.fit = append(c.fit, cells.Fit(l, w))
		c.fitSrc = append(c.fitSrc, l)
	}
	return c.fit
}

// scroll moves the column by delta lines (negative: up) within a window
// of h lines; reaching the end follows it again.
func (c *column) scroll(delta, total, h int) {
	last := max(total-h, 0)
	top := c.top
	if c.follow {
		top = last
	}
	top = min(max(top+delta, 0), last)
	c.top, c.follow = top, top == last
}

// window is the first line shown of total lines in h rows.
func (c *column) window(total, h int) int {
	last := max(total-h, 0)
	if c.follow {
		return last
	}
	return min(c.top, last)
}

// trimBlank drops the blank lines the Markdown renderer's margins put
// above and below a text.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func blank(s string) bool {
	if strings.IndexByte(s, '\x1b') >= 0 {
		s = xansi.Strip(s)
	}
	return strings.TrimSpace(s) == ""
}
