package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/sidepane"
	"parley/ui/uictx"
)

// noticesPane lists every notice of this run, newest first, each whole:
// what a notice under the composer could only show in part, and what the
// start-up banner had no room for. It takes the keys when it opens, to
// scroll what does not fit (↑/↓, pgup/pgdn, home/end); any other key goes
// back to the composer, which gets it. It is the one side pane of the
// root package: it presents the root's own notices, worded with the
// root's key names (noticesHow, keyOf), and esc gives the keys back with
// the root's focusComposerResult.
type noticesPane struct {
	ctx  *uictx.Context
	w, h int
	log  []sidepane.Notice
	// top is the first line of the notices shown (0: the newest at the
	// top); it stays on the same line when older notices arrive.
	top     int
	focused bool
	key     string
	view    string
}

func newNoticesPane(ctx *uictx.Context) *noticesPane { return &noticesPane{ctx: ctx} }

func (p *noticesPane) Name() string     { return "notices" }
func (p *noticesPane) SetSize(w, h int) { p.w, p.h = w, h }
func (p *noticesPane) Show(in sidepane.Input, focused bool) {
	if n := len(in.Notices) - len(p.log); n > 0 && p.top > 0 {
		// Newer notices came in above: keep the lines read in place.
		p.top += p.linesOf(in.Notices[len(in.Notices)-n:])
	}
	p.log, p.focused = in.Notices, focused
}

// Binds takes the keys that scroll, and esc (back to the composer).
func (p *noticesPane) Binds(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	switch k.String() {
	case "up", "down", "k", "j", "pgup", "pgdown", "home", "end", "esc":
		return true
	}
	return false
}

func (p *noticesPane) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	page := max(p.h-3, 1)
	switch k.String() {
	case "up", "k":
		p.top--
	case "down", "j":
		p.top++
	case "pgup":
		p.top -= page
	case "pgdown":
		p.top += page
	case "home":
		p.top = 0
	case "end":
		p.top = len(p.body())
	case "esc":
		return nil, focusComposerResult{}
	}
	p.top = min(max(p.top, 0), p.maxTop())
	return nil, nil
}

func (p *noticesPane) Hints() []uictx.Hint {
	return []uictx.Hint{{Key: "↑/↓", Desc: "scroll"}, {Key: "pgup/pgdn", Desc: "page"}, {Key: "esc", Desc: "back to the message"}}
}

func (p *noticesPane) Draw() (string, int, int) {
	log, w, h := p.log, p.w, p.h
	key := strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + strconv.Itoa(p.ctx.StyleGen) + "/" + strconv.Itoa(len(log)) + "/" + noticesHow(p.ctx) +
		"/" + strconv.Itoa(p.top) + "/" + strconv.FormatBool(p.focused)
	if len(log) > 0 {
		key += "/" + strconv.Itoa(log[len(log)-1].Gen) + log[len(log)-1].At.String()
	}
	if key == p.key {
		return p.view, 0, 0
	}
	p.key = key
	p.view = p.render(h)
	return p.view, 0, 0
}

// body is every notice's lines, newest first, a blank line between two.
func (p *noticesPane) body() []string {
	inner := max(p.w-2, 1)
	if len(p.log) == 0 {
		return []string{p.ctx.Styles.TurnMeta.Render(cells.Fit("Nothing to report.", inner))}
	}
	var lines []string
	for i := len(p.log) - 1; i >= 0; i-- {
		if i < len(p.log)-1 {
			lines = append(lines, "")
		}
		lines = append(lines, wrapLogged(p.log[i], inner)...)
	}
	return lines
}

// linesOf is how many lines the notices ns add to the body, the blank
// line before each included.
func (p *noticesPane) linesOf(ns []sidepane.Notice) int {
	n := 0
	for _, x := range ns {
		n += 1 + len(wrapLogged(x, max(p.w-2, 1)))
	}
	return n
}

// maxTop is the last line the body can start at: its end at the bottom
// (render clamps to the exact room its note leaves).
func (p *noticesPane) maxTop() int {
	return max(len(p.body())-1, 0)
}

// render draws the title, the body from p.top, and when the body does not
// fit, a last row that says how much is above and below and how to get
// there: nothing is out of reach, no row empty while there is more.
func (p *noticesPane) render(h int) string {
	st := &p.ctx.Styles
	inner := max(p.w-2, 1)
	// The title says how to close the pane: wrapped on a narrow pane,
	// never cut.
	var lines []string
	for _, l := range cells.Wrap("Notices · "+noticesHow(p.ctx)+" closes", inner) {
		lines = append(lines, st.TurnMeta.Bold(true).Render(l))
	}
	head := len(lines)
	body := p.body()
	room := max(h-head, 0)
	if len(body) > room {
		// The note's length depends on where the window ends, and the
		// window's on the note's rows: the note is measured with the
		// largest numbers it can say.
		notes := len(cells.WrapLines(p.scrollNote(len(body), len(body)), inner))
		room = max(h-head-notes, 1)
		p.top = min(max(p.top, 0), max(len(body)-room, 0))
		end := min(p.top+room, len(body))
		lines = append(lines, body[p.top:end]...)
		for _, l := range cells.WrapLines(p.scrollNote(p.top, len(body)-end), inner) {
			lines = append(lines, st.TurnMeta.Render(l))
		}
	} else {
		p.top = 0
		lines = append(lines, body...)
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

// scrollNote says how many lines are above and below, and the keys.
func (p *noticesPane) scrollNote(above, below int) string {
	var parts []string
	if above > 0 {
		parts = append(parts, "↑ "+itoa(above)+" "+plural(above, "line", "lines")+" above")
	}
	if below > 0 {
		parts = append(parts, "↓ "+itoa(below)+" more "+plural(below, "line", "lines"))
	}
	how := "↑/↓ pgup/pgdn"
	if !p.focused {
		how = keyOf(p.ctx.Keys.Notices) + " to scroll"
		if keyOf(p.ctx.Keys.Notices) == "" {
			how = "/notices to scroll"
		}
	}
	return strings.Join(parts, " · ") + " · " + how
}

// wrapLogged wraps one logged notice to w cells: its time and icon, then
// the text, the lines after the first indented, every word kept.
func wrapLogged(n sidepane.Notice, w int) []string {
	head := n.At.Format("15:04:05") + " " + n.Icon
	first := cells.WrapLines(head+n.Text, w)
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
