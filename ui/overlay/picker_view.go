package overlay

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/rivo/uniseg"

	"parley/ui/cells"
)

// Picker box geometry: lines of chrome around the rows (top border with the
// title, filter line, hint line, bottom border), and the width bounds.
const (
	pickerChrome   = 4
	pickerMinWidth = 50
	pickerMaxWidth = 84
)

// geometry returns the box size and how many rows of items it shows.
func (p Picker) geometry() (bw, bh, rows int) {
	w, h := p.width, p.height
	bw = min(w, max(pickerMinWidth, min(pickerMaxWidth, w*3/4)))
	chrome := pickerChrome + len(p.statusLines(bw-4))
	// Sized for all items, not the matches, so the box does not jump
	// while the user types.
	want := max(len(p.items), 1)
	if p.opts.AllowCustom {
		want++
	}
	avail := h - chrome
	if h >= 20 {
		avail = h - 2 - chrome // a margin above and below on roomy screens
	}
	rows = max(min(want, avail), 0)
	bh = min(chrome+rows, h)
	return bw, bh, rows
}

func (p Picker) visibleRows() int {
	_, _, rows := p.geometry()
	return max(rows, 1)
}

// scrollToCursor moves the window of visible rows so the cursor is inside.
func (p *Picker) scrollToCursor() {
	rows := p.visibleRows()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+rows {
		p.offset = p.cursor - rows + 1
	}
	p.offset = max(min(p.offset, p.rowCount()-rows), 0)
}

// View renders the picker's box centred in its area (SetSize), the rest of
// the area blank.
func (p Picker) View() string {
	bw, _, _ := p.geometry()
	return place(p.box(), bw, p.width, p.height)
}

// Box renders the box alone and where it goes in the area, for compositing
// over the transcript (lipgloss.NewLayer(box).X(x).Y(y)).
func (p Picker) Box() (box string, x, y int) {
	lines := p.box()
	if len(lines) == 0 {
		return "", 0, 0
	}
	bw := cells.Width(lines[0])
	return strings.Join(lines, "\n"), max((p.width-bw)/2, 0), max((p.height-len(lines))/2, 0)
}

func (p Picker) box() []string {
	bw, bh, rows := p.geometry()
	if bw < 5 || bh < 3 { // too small for a frame and padding
		return block([]string{cells.Truncate(p.opts.Title, bw)}, bw, bh)
	}
	lk := lookFor(p.ctx)
	iw := bw - 2 // inside the border
	cw := iw - 2 // inside one column of padding each side
	pad := " "
	var inner []string
	add := func(s string) { inner = append(inner, pad+cells.Fit(s, cw)+pad) }

	add(p.filterLine(lk, cw))
	for r := p.offset; r < p.offset+rows; r++ {
		if r >= p.rowCount() {
			if r == 0 {
				add(lk.muted.Render(p.emptyText()))
			} else {
				add("")
			}
			continue
		}
		it, _ := p.itemAt(r)
		var hits []bool
		if r < len(p.matches) {
			hits = p.matches[r].hits
		}
		add(p.row(lk, it, hits, r == p.cursor, cw))
	}
	for _, l := range p.statusLines(cw) {
		if p.errLine != "" {
			add(lk.errorText.Render(l))
		} else {
			add(lk.muted.Render(l))
		}
	}
	add(lk.muted.Render(p.hints(cw)))
	title := ""
	if p.opts.Title != "" {
		title = " " + lk.title.Render(cells.OneLine(p.opts.Title)) + " "
	}
	return frame(padLines(inner, iw, bh-2), iw, lk.border, title)
}

// maxErrorLines bounds how much of the picker an error may take.
const maxErrorLines = 3

// statusLines is the error (wrapped, at most maxErrorLines) or the loading
// line, for content width w.
func (p Picker) statusLines(w int) []string {
	switch {
	case w <= 0:
		return nil
	case p.errLine != "":
		ls := wrapText(p.errLine, w)
		if len(ls) > maxErrorLines {
			ls = ls[:maxErrorLines]
			ls[maxErrorLines-1] = cells.Truncate(ls[maxErrorLines-1]+" "+cells.Ellipsis, w)
		}
		return ls
	case p.loading != "":
		return []string{p.loading}
	}
	return nil
}

func (p Picker) emptyText() string {
	if len(p.items) == 0 {
		if p.loading != "" {
			return ""
		}
		if p.opts.Empty != "" {
			return p.opts.Empty
		}
		return "nothing to choose from"
	}
	return "no match for “" + p.query + "”"
}

// filterLine is the prompt with the filter text and a count "3/12".
func (p Picker) filterLine(lk look, w int) string {
	count := strconv.Itoa(len(p.matches)) + "/" + strconv.Itoa(len(p.items))
	q := p.query
	var text string
	if q == "" {
		text = lk.cursor.Render(" ") + lk.muted.Render("type to filter")
	} else {
		text = lk.text.Render(q) + lk.cursor.Render(" ")
	}
	left := lk.prompt.Render("› ") + text
	room := w - cells.Width(count) - 1
	if room < 8 {
		return cells.Truncate(left, w)
	}
	// Keep the end of a long query visible: it is where the user types.
	if cells.Width(left) > room {
		qw := room - 3
		q = truncateLeft(q, qw)
		left = lk.prompt.Render("› ") + lk.text.Render(q) + lk.cursor.Render(" ")
	}
	gap := max(w-cells.Width(left)-cells.Width(count), 1)
	return left + strings.Repeat(" ", gap) + lk.muted.Render(count)
}

// hints returns the longest key hint that fits in w cells.
func (p Picker) hints(w int) string {
	keys := listKeysFor(p.ctx, true).m
	esc := "cancel"
	if p.opts.Live {
		esc = "restore"
	}
	base := hint(keys.Select, "enter") + " choose · " + hint(keys.Close, "esc") + " " + esc
	for _, h := range []string{base + " · ↑↓ move · type to filter", base + " · ↑↓ move"} {
		if cells.Width(h) <= w {
			return h
		}
	}
	return base
}

// row renders one item: cursor marker, current marker, the title with its
// matched characters highlighted, muted detail, badges at the right.
func (p Picker) row(lk look, it PickerItem, hits []bool, selected bool, w int) string {
	st := func(s lipgloss.Style) lipgloss.Style {
		if selected {
			return s.Inherit(lk.selected)
		}
		return s
	}
	marker := "  "
	if selected {
		marker = "▸ "
	}
	cur := ""
	if p.current >= 0 || p.anyCurrent() {
		cur = "  "
		if it.Current {
			cur = "● "
		}
	}
	prefix := st(lk.marker).Render(marker) + st(lk.current).Render(cur)
	avail := w - cells.Width(marker) - cells.Width(cur)
	if avail <= 0 {
		return cells.Truncate(prefix, w)
	}

	titleW := cells.Width(it.Title)
	minTitle := min(titleW, max(avail/2, 8))
	badgeText := renderBadges(lk, fitBadges(it.Badges, avail-minTitle-1), st)
	bw := cells.Width(badgeText)
	room := avail
	if bw > 0 {
		room -= bw + 1
	}
	tw := min(titleW, room)
	titleStyle := lk.text
	switch {
	case selected:
		titleStyle = lk.selected
	case it.Custom:
		titleStyle = lk.accent
	}
	title := highlight(it.Title, hits, st(titleStyle), st(lk.match))
	title = cells.Truncate(title, tw)
	used := cells.Width(title)

	detail := ""
	if it.Detail != "" {
		if left := room - used - 2; left >= min(cells.Width(it.Detail), 4) {
			detail = st(lk.muted).Render("  ") + st(lk.muted).Render(cells.Truncate(it.Detail, left))
		}
	}
	body := prefix + title + detail
	gap := w - cells.Width(body) - bw
	if gap > 0 {
		body += st(lk.text).Render(strings.Repeat(" ", gap))
	}
	return body + badgeText
}

func (p Picker) anyCurrent() bool {
	for _, it := range p.items {
		if it.Current {
			return true
		}
	}
	return false
}

// fitBadges chooses the badge texts that fit in room cells: full texts,
// else short forms, else short forms with the least important dropped.
// The returned badges carry the chosen text in Text.
func fitBadges(bs []Badge, room int) []Badge {
	if len(bs) == 0 || room <= 0 {
		return nil
	}
	if badgesWidth(bs) <= room {
		return bs
	}
	short := make([]Badge, len(bs))
	for i, b := range bs {
		short[i] = Badge{Kind: b.Kind, Text: b.Short}
		if b.Short == "" {
			short[i].Text = b.Text
		}
	}
	for n := len(short); n > 0; n-- {
		if badgesWidth(short[:n]) <= room {
			return short[:n]
		}
	}
	return nil
}

func badgesWidth(bs []Badge) int {
	w := 0
	for i, b := range bs {
		if i > 0 {
			w++
		}
		w += cells.Width(b.Text)
	}
	return w
}

// renderBadges joins badges with a space, each in its kind's style.
func renderBadges(lk look, bs []Badge, st func(lipgloss.Style) lipgloss.Style) string {
	if len(bs) == 0 {
		return ""
	}
	var b strings.Builder
	for i, bd := range bs {
		if i > 0 {
			b.WriteString(st(lk.text).Render(" "))
		}
		b.WriteString(st(lk.badgeStyle(bd.Kind)).Render(bd.Text))
	}
	return b.String()
}

// highlight styles title with the matched graphemes in hit style. A
// grapheme counts as matched when any of its runes did, so combining marks
// and emoji sequences are never split by an escape code.
func highlight(title string, hits []bool, base, hit lipgloss.Style) string {
	if len(hits) == 0 {
		return base.Render(title)
	}
	var b, run strings.Builder
	runHit := false
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if runHit {
			b.WriteString(hit.Render(run.String()))
		} else {
			b.WriteString(base.Render(run.String()))
		}
		run.Reset()
	}
	if isASCII(title) { // one byte, one rune, one grapheme
		for i := 0; i < len(title); i++ {
			isHit := i < len(hits) && hits[i]
			if isHit != runHit {
				flush()
				runHit = isHit
			}
			run.WriteByte(title[i])
		}
		flush()
		return b.String()
	}
	ri := 0
	g := uniseg.NewGraphemes(title)
	for g.Next() {
		rs := g.Runes()
		isHit := false
		for k := range rs {
			if ri+k < len(hits) && hits[ri+k] {
				isHit = true
			}
		}
		ri += len(rs)
		if isHit != runHit {
			flush()
			runHit = isHit
		}
		run.WriteString(g.Str())
	}
	flush()
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// truncateLeft keeps the last w cells of plain s, with a leading ellipsis.
func truncateLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if cells.Width(s) <= w {
		return s
	}
	g := uniseg.NewGraphemes(s)
	var parts []string
	for g.Next() {
		parts = append(parts, g.Str())
	}
	out, used := "", 1
	for i := len(parts) - 1; i >= 0; i-- {
		cw := cells.Width(parts[i])
		if used+cw > w {
			break
		}
		out = parts[i] + out
		used += cw
	}
	return cells.Ellipsis + out
}
