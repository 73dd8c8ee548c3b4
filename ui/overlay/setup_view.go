package overlay

import (
	"strconv"
	"strings"

	"parley/ui/cells"
)

// Setup screen geometry.
const (
	setupMaxWidth   = 96 // a readable measure on wide terminals
	setupMinExplain = 3  // explanation rows kept when space is tight
)

// setupLayout is how the screen's rows are shared out.
type setupLayout struct {
	cw, margin   int  // content width and left margin
	gap          bool // blank line under the title
	explainRows  int  // rows for the explanation (scrollable)
	sep          bool // blank line between explanation and servers
	choiceRows   int  // rows for the server list (scrolls with the cursor)
	explainLines []string
	// summary replaces the explanation's window when the explanation is
	// cut (a small screen gives the servers the room): one sentence naming
	// the variables and the file, so that what to do shows without
	// scrolling; pgdn shows the whole text.
	summary     []string
	choiceLines []string
	curFrom     int // choiceLines range of the selected choice
	curTo       int
}

func (s Setup) layout() setupLayout {
	var l setupLayout
	l.cw = max(min(s.width-2, setupMaxWidth), 1)
	l.margin = max((s.width-l.cw)/2, 0)
	lk := lookFor(s.ctx)
	l.explainLines = s.explanation(lk, l.cw)
	l.choiceLines, l.curFrom, l.curTo = s.choiceSection(lk, l.cw)

	body := s.height - 2 // title and footer
	if s.height >= 16 {
		l.gap = true
		body--
	}
	body = max(body, 0)
	ne, nc := len(l.explainLines), len(l.choiceLines)
	if s.reading {
		l.explainRows = body
		return l
	}
	if ne+1+nc <= body {
		l.explainRows, l.sep, l.choiceRows = ne, true, nc
		return l
	}
	// Not everything fits: the choices come first, the explanation keeps a
	// few rows (two on short screens: a line and the "more" hint) and
	// scrolls.
	minExplain, sep := setupMinExplain, 1
	if s.height < 16 {
		minExplain, sep = 2, 0
	}
	l.choiceRows = min(nc, max(body-min(minExplain, ne)-sep, 0))
	if l.choiceRows < min(nc, 3) { // tiny screens
		l.choiceRows = min(nc, body)
	}
	rest := body - l.choiceRows
	if rest >= 2 && sep == 1 {
		l.sep = true
		rest--
	}
	l.explainRows = max(rest, 0)
	if ne <= l.explainRows {
		return l
	}
	if sum := s.summary(lk, l.cw, l.explainRows); sum != nil {
		l.summary = sum
		// Rows the summary leaves go below the server list; one of them
		// separates the two.
		l.sep = l.sep || len(sum) < l.explainRows
		l.explainRows = len(sum)
	}
	return l
}

// explainRows is the height of the explanation window (paging step).
func (s Setup) explainRows() int { return max(s.layout().explainRows, 1) }

func (s *Setup) clampScroll() {
	l := s.layout()
	s.scroll = max(min(s.scroll, len(l.explainLines)-l.explainRows), 0)
}

// explanation is the text about environment variables and the config file.
func (s Setup) explanation(lk look, w int) []string {
	var out []string
	cut := false
	para := func(st string) { out = append(out, wrapText(st, w)...) }
	// A command or a path is never broken inside itself: one that does not
	// fit is cut with an ellipsis, and the screen says to widen it to copy.
	whole := func(c string, indent int, st func(...string) string) {
		room := max(w-indent, 1)
		if cells.Width(c) > room {
			c, cut = cells.Truncate(c, room), true
		}
		out = append(out, cells.Spaces(indent)+st(c))
	}
	code := func(c string) { whole(c, 2, lk.code.Render) }
	para(lk.text.Render("parley talks to any OpenAI-compatible server; none is configured yet."))
	para(lk.text.Render("No gateway at hand? Run ") + lk.code.Render("parley --demo") + lk.text.Render(" to try it with a built-in fake one."))
	out = append(out, "")
	para(lk.heading.Render("To use a hosted gateway,") + lk.text.Render(" set these variables and start parley again:"))
	code(`export OPENAI_API_KEY="sk-…"`)
	code(`export OPENAI_BASE_URL="https://api.openai.com/v1"`)
	if p := cells.OneLine(s.opts.ConfigPath); p != "" {
		if lead := "Or write the config file "; cells.Width(lead)+cells.Width(p)+1 <= w {
			out = append(out, lk.text.Render(lead)+lk.accent.Render(p)+lk.text.Render(":"))
		} else {
			para(lk.text.Render("Or write the config file"))
			whole(p, 2, lk.accent.Render)
		}
	} else {
		para(lk.text.Render("Or write the config file (parley help shows where it is):"))
	}
	code(`default_model = "gpt-4o"`)
	code(`[[providers]]`)
	code(`name = "openai"`)
	code(`base_url = "https://api.openai.com/v1"`)
	code(`api_key_env = "OPENAI_API_KEY"`)
	if cut {
		out = append(out, "")
		para(lk.muted.Render("Lines ending in … are cut: widen the window to copy them."))
	}
	return out
}

// moreHint ends an explanation that is cut.
const moreHint = "↓ pgdn for more"

// summary is the explanation in one sentence and the more hint, in at most
// rows lines of w cells: the longest wording that fits, or nil when not even
// the shortest does.
func (s Setup) summary(lk look, w, rows int) []string {
	vars := lk.code.Render("OPENAI_API_KEY") + lk.text.Render(" and ") + lk.code.Render("OPENAI_BASE_URL")
	var options []string
	if p := cells.OneLine(s.opts.ConfigPath); p != "" {
		options = append(options, lk.text.Render("No gateway is configured: set ")+vars+lk.text.Render(", or write ")+lk.accent.Render(p)+lk.text.Render("."))
	}
	options = append(options,
		lk.text.Render("Set ")+vars+lk.text.Render(", or write the config file."),
		lk.text.Render("Set ")+vars+lk.text.Render("."),
	)
	hint := lk.muted.Render(moreHint)
	for _, o := range options {
		lines := wrapText(o, w)
		if last := lines[len(lines)-1]; cells.Width(last)+1+cells.Width(hint) <= w {
			lines[len(lines)-1] = last + " " + hint
		} else {
			lines = append(lines, hint)
		}
		if len(lines) <= rows {
			return lines
		}
	}
	return nil
}

// choiceSection is the server list with the selectable lines; it returns
// the line range of the selected choice.
func (s Setup) choiceSection(lk look, w int) (lines []string, from, to int) {
	lines = append(lines, lk.heading.Render(cells.Truncate("Servers on this machine", w)))
	names := make([]string, len(s.opts.Candidates))
	for i, c := range s.opts.Candidates {
		names[i] = cells.OneLine(c.Name)
	}
	if s.probing {
		lines = append(lines, indentWrap(lk.muted.Render("  ⋯ looking for "+joinNames(names)+" on this machine…"), w, 4)...)
	} else if !s.probed {
		lines = append(lines, indentWrap(lk.muted.Render("  not looked yet: press r to look for "+joinNames(names)), w, 4)...)
	}
	cs := s.choices()
	sel := cs[min(s.cursor, len(cs)-1)]
	if !s.probing {
		lines, from, to = s.serverLines(lk, w, sel, lines)
	}
	for _, c := range cs[len(cs)-2:] {
		label := "Look again"
		if c.kind == choiceQuit {
			label = "Quit"
		}
		if c == sel {
			from = len(lines)
			lines = append(lines, choiceMark(lk, c, sel)+lk.selectedText.Render(label))
			to = len(lines)
			continue
		}
		lines = append(lines, choiceMark(lk, c, sel)+lk.text.Render(label))
	}
	return lines, from, to
}

// choiceMark is what goes before choice c: the marker when it is the
// selected one.
func choiceMark(lk look, c, sel choice) string {
	if c == sel {
		return lk.marker.Render("▸ ")
	}
	return "  "
}

// serverLines appends to lines what the look found: each usable server
// as a choice with its model, the servers that answered without a chat
// model or with something else, the ones not running, and what to do
// when none can be used. from and to are the lines of the selected
// choice when it is a server (0 otherwise).
func (s Setup) serverLines(lk look, w int, sel choice, lines []string) (out []string, from, to int) {
	// Narrow screens get shorter texts so the choices fit at 40x12.
	narrow := w < 60
	hang := func(st string, indent int) {
		lines = append(lines, indentWrap(st, w, indent)...)
	}
	var down []string
	found := 0
	for i, r := range s.results {
		name := lk.text.Render(cells.OneLine(r.Name))
		url := lk.muted.Render(cells.OneLine(r.BaseURL))
		switch {
		case r.Status == ProbeFound && len(r.Models) > 0:
			found++
			c := choice{kind: choiceServer, result: i}
			if c == sel {
				from = len(lines)
			}
			hang(choiceMark(lk, c, sel)+lk.good.Render("✓ ")+name+"  "+url, 4)
			detail := lk.muted.Render("model ") + lk.text.Render(cells.OneLine(s.modelFor(i)))
			if n := len(r.Models); n > 1 {
				detail += lk.muted.Render(" · m: pick from " + strconv.Itoa(n))
			}
			hang("    "+detail, 4)
			if c == sel {
				to = len(lines)
			}
		case r.Status == ProbeFound:
			hang("  "+lk.good.Render("✓ ")+name+"  "+url, 4)
			what := "lists no models yet: pull or load one, then press r"
			if r.ImageModels > 0 {
				what = "lists only image models: pull or load a chat model, then press r"
			}
			hang(lk.muted.Render("    "+what), 4)
		case r.Status == ProbeInvalid:
			if narrow {
				hang("  "+lk.errorText.Render("! ")+name+lk.muted.Render(": "+cells.OneLine(r.Reason)), 4)
				continue
			}
			hang("  "+lk.errorText.Render("! ")+name+"  "+url, 4)
			hang(lk.muted.Render("    "+cells.OneLine(r.Reason)+"; not an OpenAI-compatible server"), 4)
		default:
			if narrow {
				down = append(down, cells.OneLine(r.Name))
			} else {
				down = append(down, cells.OneLine(r.Name)+" ("+hostPort(r.BaseURL)+")")
			}
		}
	}
	if len(down) > 0 {
		hang(lk.muted.Render("  not running: "+strings.Join(down, ", ")), 4)
	}
	if s.probed && found == 0 {
		if narrow {
			hang(lk.text.Render("  Start a server (say `ollama serve`) and press r, set the variables above and restart, or try `parley --demo`."), 2)
		} else {
			hang(lk.text.Render("  No usable server answered: start one (`ollama serve`, `ollama pull llama3.2`) and press r, or set the variables above and restart parley."), 2)
		}
	}
	return lines, from, to
}

// hostPort shows a base URL as host:port, the part that tells servers apart.
func hostPort(base string) string {
	u := cells.OneLine(base)
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[:i]
	}
	return u
}

// joinNames writes "A, B and C".
func joinNames(ns []string) string {
	switch len(ns) {
	case 0:
		return "local servers"
	case 1:
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// footer returns the key hints for the selected choice, the longest
// version that fits.
func (s Setup) footer(w int) string {
	cs := s.choices()
	var options []string
	switch {
	case s.reading:
		options = []string{
			"↑↓ pgup/pgdn scroll · esc back to the servers · q quit",
			"↑↓ pgup/pgdn scroll · esc back · q quit",
			"↑↓ scroll · esc back · q quit",
		}
	case cs[min(s.cursor, len(cs)-1)].kind == choiceServer:
		options = []string{
			"enter use for this session · s use and save to config · m model · r look again · q quit",
			"enter use · s use and save · m model · r look again · q quit",
			"enter use · s save · m model · q quit",
			"enter use · s save · q quit",
		}
	default:
		options = []string{
			"↑↓ move · enter select · pgup/pgdn scroll · r look again · q quit",
			"↑↓ move · enter select · r look again · q quit",
			"enter select · r look again · q quit",
		}
	}
	for _, o := range options {
		if len([]rune(o)) <= w {
			return o
		}
	}
	return options[len(options)-1]
}

// View renders the setup screen (or, while choosing a model, the model
// picker) over the whole area.
func (s Setup) View() string {
	if s.picking {
		return s.picker.View()
	}
	if s.width <= 0 || s.height <= 0 {
		return ""
	}
	lk := lookFor(s.ctx)
	l := s.layout()
	var rows []string
	rows = append(rows, lk.title.Render("Welcome to parley")+lk.muted.Render(" · first run"))
	if l.gap {
		rows = append(rows, "")
	}
	// Explanation window with a scroll hint on its last row when cut.
	ex, start := l.explainLines, max(min(s.scroll, len(l.explainLines)-l.explainRows), 0)
	if l.summary != nil {
		ex, start = l.summary, 0
	}
	for i := 0; i < l.explainRows; i++ {
		j := start + i
		last := i == l.explainRows-1
		switch {
		case last && j < len(ex)-1:
			rows = append(rows, lk.muted.Render(moreHint))
		case j < len(ex):
			rows = append(rows, ex[j])
		default:
			rows = append(rows, "")
		}
	}
	if l.sep {
		rows = append(rows, "")
	}
	// Server list window, scrolled so the selected choice shows.
	// Anchored at the bottom, so the last choices (look again, quit) show,
	// unless the selected server is above the window.
	cl := l.choiceLines
	off := max(len(cl)-l.choiceRows, 0)
	if l.curFrom < off {
		off = l.curFrom
	}
	for i := 0; i < l.choiceRows; i++ {
		if off+i < len(cl) {
			rows = append(rows, cl[off+i])
		}
	}
	body := block(rows, l.cw, s.height-1)
	body = append(body, cells.Fit(lk.muted.Render(s.footer(l.cw)), l.cw))
	pad := strings.Repeat(" ", l.margin)
	right := strings.Repeat(" ", max(s.width-l.margin-l.cw, 0))
	for i := range body {
		body[i] = pad + body[i] + right
	}
	return strings.Join(body, "\n")
}
