package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
	"parley/ui/uictx"
)

// noticesPane lists every notice of this run, newest first, each whole:
// what a notice under the composer could only show in part, and what the
// start-up banner had no room for. It is a passive pane: it never takes
// the keys.
type noticesPane struct {
	ctx  *uictx.Context
	key  string
	view string
}

func newNoticesPane(ctx *uictx.Context) *noticesPane { return &noticesPane{ctx: ctx} }

func (p *noticesPane) name() string { return "notices" }

func (p *noticesPane) draw(in paneInput, w, h int, _ bool) string {
	log := in.notes.log
	key := strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + strconv.Itoa(p.ctx.StyleGen) + "/" + strconv.Itoa(len(log)) + "/" + noticesHow(p.ctx)
	if len(log) > 0 {
		key += "/" + strconv.Itoa(log[len(log)-1].gen) + log[len(log)-1].at.String()
	}
	if key == p.key {
		return p.view
	}
	p.key = key
	p.view = p.render(log, w, h)
	return p.view
}

func (p *noticesPane) render(log []notice, w, h int) string {
	st := p.ctx.Styles
	inner := max(w-2, 1)
	title := "Notices · " + noticesHow(p.ctx) + " closes"
	lines := []string{st.TurnMeta.Bold(true).Render(cells.Fit(title, inner))}
	if len(log) == 0 {
		lines = append(lines, st.TurnMeta.Render(cells.Fit("Nothing to report.", inner)))
	}
	for i := len(log) - 1; i >= 0 && len(lines) < h; i-- {
		n := log[i]
		head := n.at.Format("15:04:05") + " " + n.kind.icon()
		lines = append(lines, "")
		for j, l := range strings.Split(ansi.Wrap(head+n.text, inner, ""), "\n") {
			if j > 0 {
				l = "  " + l
			}
			lines = append(lines, cells.Fit(l, inner))
		}
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	border := st.TurnMeta.Render("│")
	out := make([]string, h)
	for i := range out {
		l := cells.Spaces(inner)
		if i < len(lines) {
			l = cells.Fit(lines[i], inner)
		}
		out[i] = border + " " + l
	}
	return strings.Join(out, "\n")
}
