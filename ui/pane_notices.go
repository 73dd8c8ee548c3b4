package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
)

// noticesPane lists every notice of this run, newest first, each whole:
// what a notice under the composer could only show in part, and what the
// start-up banner had no room for.
type noticesPane struct {
	key  string
	view string
}

func (p *noticesPane) name() string { return "notices" }

func (p *noticesPane) draw(m *Model, w, h int) string {
	log := m.notes.log
	key := strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + strconv.Itoa(m.ctx.StyleGen) + "/" + strconv.Itoa(len(log))
	if len(log) > 0 {
		key += "/" + strconv.Itoa(log[len(log)-1].gen) + log[len(log)-1].at.String()
	}
	if key == p.key {
		return p.view
	}
	p.key = key
	p.view = p.render(m, w, h)
	return p.view
}

func (p *noticesPane) render(m *Model, w, h int) string {
	st := m.ctx.Styles
	inner := max(w-2, 1)
	title := "Notices · " + m.noticesHow() + " closes"
	lines := []string{st.TurnMeta.Bold(true).Render(cells.Fit(title, inner))}
	log := m.notes.log
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
