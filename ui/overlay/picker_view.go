package overlay

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/list"
)

// Picker box geometry: lines of chrome around the rows (top border with the
// title, filter line, hint line, bottom border), and the width bounds.
const (
	pickerChrome   = 4
	pickerMinWidth = 50
	pickerMaxWidth = 84
	// pickerWideWidth bounds a Wide picker: long titles read better wider,
	// but a row past this is hard to follow across the screen.
	pickerWideWidth = 160
	// errorKeepsRows is how many rows of the list an error leaves: the
	// list stays usable (a model can be typed or chosen) while the error
	// says every word it can.
	errorKeepsRows = 3
)

// geometry returns the box size and how many rows of items it shows.
func (p Picker) geometry() (bw, bh, rows int) {
	w, h := p.width, p.height
	bw = min(w, max(pickerMinWidth, min(pickerMaxWidth, w*3/4)))
	if p.opts.Wide {
		// Nearly the whole screen, a margin each side to show it is a box.
		bw = min(w, max(pickerMinWidth, min(pickerWideWidth, w-8)))
	}
	chrome := pickerChrome + len(p.statusLines(bw-4))
	// Sized for all items, not the matches, so the box does not jump
	// while the user types.
	want := max(len(p.items), 1)
	if p.opts.AllowCustom {
		want++
	}
	avail := p.usableHeight() - chrome
	rows = max(min(want, avail), 0)
	bh = min(chrome+rows, h)
	return bw, bh, rows
}

// View renders the picker's box centred in its area (SetSize), the rest of
// the area blank.
func (p Picker) View() string {
	box := p.box()
	if p.cache != nil && p.cache.placed != "" {
		return p.cache.placed
	}
	bw, _, _ := p.geometry()
	v := place(box, bw, p.width, p.height)
	if p.cache != nil {
		p.cache.placed = v
	}
	return v
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

// pickerCache is the last box drawn and what it was drawn from.
type pickerCache struct {
	key    pickerKey
	box    []string
	placed string // View: the box placed in the area; "" until made
}

type pickerKey struct {
	list, filter, status string
	w, h, gen            int
	ok                   bool
}

func (p Picker) box() []string {
	k := pickerKey{list: p.list.View(), filter: p.filter.View(), status: p.loading + "\x00" + p.errLine + "\x00" + p.list.Position(),
		w: p.width, h: p.height, gen: p.ctx.StyleGen, ok: true}
	if p.cache != nil && p.cache.key == k {
		return p.cache.box
	}
	out := p.drawBox(k.list)
	if p.cache != nil {
		p.cache.key, p.cache.box, p.cache.placed = k, out, ""
	}
	return out
}

func (p Picker) drawBox(listView string) []string {
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
	if rows > 0 {
		for _, l := range strings.Split(listView, "\n") {
			inner = append(inner, pad+l+pad)
		}
	}
	for _, l := range p.statusLines(cw) {
		if p.errLine != "" {
			add(lk.errorText.Render(l))
		} else {
			add(lk.muted.Render(l))
		}
	}
	add(p.hints(lk, cw))
	title := ""
	if p.opts.Title != "" {
		title = " " + lk.title.Render(cells.OneLine(p.opts.Title)) + " "
	}
	return frame(padLines(inner, iw, bh-2), iw, lk.border, title)
}

// usableHeight is the height the box may take: the area less a margin
// above and below on roomy screens.
func (p Picker) usableHeight() int {
	if p.height >= 20 {
		return p.height - 2
	}
	return p.height
}

// statusLines is the error or the loading line, for content width w. The
// error wraps over the rows the picker has, leaving errorKeepsRows of the
// list; a longer one ends with where to read it whole (the root logs it
// with the notices).
func (p Picker) statusLines(w int) []string {
	switch {
	case w <= 0:
		return nil
	case p.errLine != "":
		room := max(1, p.usableHeight()-pickerChrome-errorKeepsRows)
		return cells.WrapWithin(p.errLine, w, room, noticesHow(p.ctx)+" shows all")
	case p.loading != "":
		return []string{p.loading}
	}
	return nil
}

// count is the filter line's "matches/items".
func (p Picker) count() string {
	n := p.list.Len()
	if p.isCustomRow(n - 1) { // the custom row is last, and not a match
		n--
	}
	return strconv.Itoa(n) + "/" + strconv.Itoa(len(p.items))
}

func (p Picker) isCustomRow(r int) bool {
	it, ok := p.list.Row(r)
	return ok && it.item.Custom
}

// filterLine is the filter with the count at its right.
func (p Picker) filterLine(lk look, w int) string {
	count := p.count()
	if w-cells.Width(count)-1 < 8 {
		return p.filter.View()
	}
	return p.filter.View() + " " + lk.muted.Render(count)
}

// hints is the longest key hint that fits in w cells, with the cursor's
// position at the right when the rows do not all fit.
func (p Picker) hints(lk look, w int) string {
	keys := listKeysFor(p.ctx, true).m
	esc := "cancel"
	if p.opts.Live {
		esc = "restore"
	}
	pos := p.list.Position()
	room := w
	if pos != "" {
		room -= cells.Width(pos) + 1
	}
	base := hint(keys.Select, "enter") + " choose · " + hint(keys.Close, "esc") + " " + esc
	text := base
	for _, h := range []string{base + " · ↑↓ move · type to filter", base + " · ↑↓ move"} {
		if cells.Width(h) <= room {
			text = h
			break
		}
	}
	if pos == "" || cells.Width(text)+1+cells.Width(pos) > w {
		return lk.muted.Render(text)
	}
	return lk.muted.Render(text + strings.Repeat(" ", w-cells.Width(text)-cells.Width(pos)) + pos)
}

// pickerRowView draws one row: cursor marker, current marker, the title
// with its matched characters highlighted, muted detail, badges at the
// right.
func pickerRowView(lk look, r pickerRow, hits []bool, selected bool, w int) string {
	it := r.item
	// On the selected row every piece takes the selection's colours (the
	// matches are underlined): an accent or muted colour on the selection
	// background is unreadable in several themes.
	st := func(s lipgloss.Style) lipgloss.Style {
		if selected {
			return lk.selected
		}
		return s
	}
	match := lk.match
	if selected {
		match = lk.selected.Underline(true)
	}
	marker := "  "
	if selected {
		marker = "▸ "
	}
	cur := ""
	if r.curCol {
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
	if dw := cells.Width(it.Detail); r.keepDetail && dw > 0 {
		// The detail and its two-cell gap first; the title keeps at least
		// a few cells so the row still says what it is.
		tw = min(titleW, max(room-dw-2, min(8, room)))
	}
	titleStyle := lk.text
	switch {
	case selected:
		titleStyle = lk.selected
	case it.Custom:
		titleStyle = lk.accent
	}
	title := list.Highlight(it.Title, hits, st(titleStyle), match)
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
