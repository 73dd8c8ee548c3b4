package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/uictx"
)

// noticesPane lists every notice of this run, newest first, each whole:
// what a notice under the composer could only show in part, and what the
// start-up banner had no room for. It is a passive pane: it never takes
// the keys.
type noticesPane struct {
	ctx  *uictx.Context
	w, h int
	log  []notice
	key  string
	view string
}

func newNoticesPane(ctx *uictx.Context) *noticesPane { return &noticesPane{ctx: ctx} }

func (p *noticesPane) name() string { return "notices" }

func (p *noticesPane) SetSize(w, h int)                       { p.w, p.h = w, h }
func (p *noticesPane) show(in paneInput, _ bool)              { p.log = in.notes.log }
func (p *noticesPane) Update(tea.Msg) (tea.Cmd, uictx.Action) { return nil, nil }
func (p *noticesPane) Hints() []uictx.Hint                    { return nil }

func (p *noticesPane) Draw() (string, int, int) {
	log, w, h := p.log, p.w, p.h
	key := strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + strconv.Itoa(p.ctx.StyleGen) + "/" + strconv.Itoa(len(log)) + "/" + noticesHow(p.ctx)
	if len(log) > 0 {
		key += "/" + strconv.Itoa(log[len(log)-1].gen) + log[len(log)-1].at.String()
	}
	if key == p.key {
		return p.view, 0, 0
	}
	p.key = key
	p.view = p.render(log, w, h)
	return p.view, 0, 0
}

func (p *noticesPane) render(log []notice, w, h int) string {
	st := p.ctx.Styles
	inner := max(w-2, 1)
	title := "Notices · " + noticesHow(p.ctx) + " closes"
	lines := []string{st.TurnMeta.Bold(true).Render(cells.Fit(title, inner))}
	if len(log) == 0 {
		lines = append(lines, st.TurnMeta.Render(cells.Fit("Nothing to report.", inner)))
	}
	// Newest first, each message whole while it fits. The first one that
	// does not fit fills what is left of the pane, and the last rows say,
	// wrapped and whole, that it goes on and how many older ones there
	// are: no row stays empty while there is more to show.
	for i := len(log) - 1; i >= 0; i-- {
		block := append([]string{""}, wrapLogged(log[i], inner)...)
		if i == len(log)-1 && len(lines)+len(block) > h {
			block = block[1:] // the newest needs no blank row above it
		}
		if len(lines)+len(block) <= h {
			lines = append(lines, block...)
			continue
		}
		older := i
		note := "… more of it in a taller pane"
		if older > 0 {
			note = "… more of it, and " + itoa(older) + " older " + plural(older, "notice", "notices") + ", in a taller pane"
		}
		noteLines := cells.WrapLines(note, inner)
		room := h - len(lines) - len(noteLines)
		if room < 2 && block[0] == "" { // not one line of it beside the blank row
			note = "… " + itoa(older+1) + " older " + plural(older+1, "notice", "notices") + " in a taller pane"
			noteLines = cells.WrapLines(note, inner)
			room = 0
		}
		lines = append(lines, block[:max(room, 0)]...)
		for len(lines)+len(noteLines) > h && len(lines) > 1 {
			lines = lines[:len(lines)-1]
		}
		for _, l := range noteLines {
			lines = append(lines, st.TurnMeta.Render(l))
		}
		break
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

// wrapLogged wraps one logged notice to w cells: its time and icon, then
// the text, the lines after the first indented, every word kept.
func wrapLogged(n notice, w int) []string {
	head := n.at.Format("15:04:05") + " " + n.kind.icon()
	first := cells.WrapLines(head+n.text, w)
	if len(first) == 1 {
		return first
	}
	// The lines after the first are indented by two cells, so they are
	// wrapped two cells narrower.
	rest := strings.Join(first[1:], " ")
	out := []string{first[0]}
	for _, l := range cells.WrapLines(rest, max(w-2, 1)) {
		out = append(out, "  "+l)
	}
	return out
}
