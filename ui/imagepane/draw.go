package imagepane

import (
	"strconv"
	"strings"

	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/list"
	"parley/ui/uictx"
)

// drawCache keeps the parts of the last Draw that cost more than joining
// strings, each with the inputs it was made from.
type drawCache struct {
	detKey    detKey
	details   []string
	pvFirst   *string // the preview slice's first element and length
	pvLen     int
	pvW, pvH  int
	pvLines   []string
	hintKey   hintKey
	hint      string
	titleKey  titleKey
	titleLine string
}

type detKey struct {
	gen, sel, w, h, styleGen int
}

type hintKey struct {
	w, styleGen int
	empty       bool
}

type titleKey struct {
	gen, sel, w, styleGen int
	focused               bool
}

// render returns the pane in exactly w×h cells: h lines, each exactly w
// cells wide, joined by newlines, with no outer border. preview is the
// selected image rendered for PreviewArea(w, h), or nil while it is being
// made (a quiet "…" shows, or the text given to setPreviewError). focused
// says whether keys go to the pane; the selection is highlighted only
// then. render decodes nothing and caches what it renders, so a frame
// that changed nothing only joins strings. The preview is cached by the
// slice's identity: pass a new slice for a new rendering, never change
// one in place. render also scrolls the list to keep the selection in
// view and remembers the list's height for pgup/pgdown.
func (p *Pane) render(w, h int, preview []string, focused bool) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	l := makeLayout(w, h)
	lines := make([]string, h)
	blank := cells.Spaces(w)
	for i := range lines {
		lines[i] = blank
	}
	if l.title >= 0 {
		lines[l.title] = p.title(w, focused)
	}
	if len(p.items) == 0 {
		p.drawEmpty(lines, l)
	} else {
		p.drawBody(lines, l, preview, focused)
	}
	p.drawBottom(lines, l)
	return strings.Join(lines, "\n")
}

// title is the top line: how many images, and which one is selected.
func (p *Pane) title(w int, focused bool) string {
	k := titleKey{p.gen, p.sel(), w, p.ctx.StyleGen, focused}
	if k == p.cache.titleKey && p.cache.titleLine != "" {
		return p.cache.titleLine
	}
	st := &p.ctx.Styles
	t := " Images"
	if focused {
		// Marked in words as well as colour: NO_COLOR and 16 colours show it.
		t = "▸ Images"
	}
	if n := len(p.items); n > 0 {
		t += " · " + strconv.Itoa(p.sel()+1) + " of " + strconv.Itoa(n) + " · newest first"
	}
	style := st.Muted.Bold(true)
	if focused {
		style = st.OverlayTitle
	}
	p.cache.titleKey, p.cache.titleLine = k, style.Render(cells.Fit(t, w))
	return p.cache.titleLine
}

// drawEmpty fills the body with what to do to get images.
func (p *Pane) drawEmpty(lines []string, l layout) {
	if l.body.h == 0 {
		return
	}
	st := &p.ctx.Styles
	paste := "ctrl+v"
	if ks := p.ctx.Keys.Paste.Keys(); len(ks) > 0 {
		paste = ks[0]
	}
	text := "No images yet. /image PROMPT makes one; " + paste + " or /attach adds one."
	more := "Attached and generated images of this conversation are listed here, newest first."
	inner := max(l.w-2, 1)
	var rows []string
	for _, t := range cells.WrapLines(text, inner) {
		rows = append(rows, st.Text.Render(cells.Fit(" "+t, l.w)))
	}
	rows = append(rows, cells.Spaces(l.w))
	for _, t := range cells.WrapLines(more, inner) {
		rows = append(rows, st.Muted.Render(cells.Fit(" "+t, l.w)))
	}
	// One blank row under the title when there is room for it.
	y := l.body.y
	if l.body.h > len(rows) {
		y++
	}
	for _, r := range rows {
		if y >= l.body.y+l.body.h {
			break
		}
		lines[y] = r
		y++
	}
}

// drawBody puts the list, the preview and the details into lines.
func (p *Pane) drawBody(lines []string, l layout, preview []string, focused bool) {
	if l.body.h == 0 {
		return
	}
	st := &p.ctx.Styles
	listH := l.list.h
	if p.prompt != nil && l.list.y+l.list.h >= l.h-1 {
		listH-- // the prompt's message line covers the list's last row
	}
	list := p.listLines(l.list.w, listH, focused)
	pv := p.previewLines(l.preview.w, l.preview.h, preview)
	det := p.detailLines(l.details.w, l.details.h)
	sep := st.KeyHintSep.Render("│")
	for y := l.body.y; y < l.body.y+l.body.h; y++ {
		if l.wide {
			right := cells.Spaces(l.w - l.preview.x)
			if r := l.preview; y >= r.y && y < r.y+r.h {
				right = pv[y-r.y]
			} else if r := l.details; y >= r.y && y < r.y+r.h {
				right = det[y-r.y]
			}
			left := cells.Spaces(l.list.w)
			if i := y - l.list.y; i >= 0 && i < len(list) {
				left = list[i]
			}
			lines[y] = left + sep + " " + right
			continue
		}
		switch {
		case y >= l.preview.y && y < l.preview.y+l.preview.h:
			lines[y] = pv[y-l.preview.y]
		case y >= l.details.y && y < l.details.y+l.details.h:
			lines[y] = " " + det[y-l.details.y]
		case y == l.head:
			lines[y] = p.heading(l.w)
		case y >= l.list.y && y-l.list.y < len(list):
			lines[y] = list[y-l.list.y]
		}
	}
}

// heading is the narrow layout's rule above the list.
func (p *Pane) heading(w int) string {
	n := len(p.items)
	t := strconv.Itoa(n) + " images"
	if n == 1 {
		t = "1 image"
	}
	t = cells.Truncate("── "+t+" ", w)
	return p.ctx.Styles.KeyHintSep.Render(t + strings.Repeat("─", max(w-cells.Width(t), 0)))
}

// listLines are the visible rows of the list, each exactly w cells. The
// list learns its size and focus here (Draw runs in Update), so the page
// keys move by what was drawn.
func (p *Pane) listLines(w, n int, focused bool) []string {
	if n <= 0 || w <= 0 {
		return nil
	}
	p.list.SetSize(w, n)
	p.list.SetFocused(focused)
	return strings.Split(p.list.View(), "\n")
}

// listRow draws one item of the list: the selection mark, the origin's
// marker, the name, and its pixels and bytes as the width allows. The
// selection is highlighted while the pane has the keys, bold otherwise.
func listRow(ctx *uictx.Context, r list.Row[row]) string {
	st := &ctx.Styles
	w := r.Width
	info := ""
	switch {
	case w >= 40:
		info = padLeft(r.Item.pixels, 9) + "  " + padLeft(r.Item.bytes, 7)
	case w >= 22:
		info = padLeft(r.Item.bytes, 7)
	}
	lead := " "
	if r.Selected {
		lead = "▸"
	}
	nameW := max(w-3-cells.Width(info)-2, 1)
	text := cells.Fit(lead+r.Item.marker+" "+cells.FitMiddle(r.Item.name, nameW)+" "+info+" ", w)
	switch {
	case r.Selected && r.Focused:
		return st.PickerSelected.UnsetPaddingLeft().Render(text)
	case r.Selected:
		return st.Text.Bold(true).Render(text)
	}
	return st.PickerItem.UnsetPaddingLeft().Render(text)
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string {
	return cells.Spaces(w-cells.Width(s)) + s
}

// previewLines are the preview area's rows, each exactly w cells: the
// given rendering centred, else the error text, else a quiet "…".
func (p *Pane) previewLines(w, h int, preview []string) []string {
	if h <= 0 {
		return nil
	}
	st := &p.ctx.Styles
	var first *string
	if len(preview) > 0 {
		first = &preview[0]
	}
	if preview != nil && first == p.cache.pvFirst && len(preview) == p.cache.pvLen && w == p.cache.pvW && h == p.cache.pvH {
		return p.cache.pvLines
	}
	out := make([]string, h)
	var body []string
	var widths []int // each body line's width: measured once, they are long
	add := func(line string, styled func(string) string) {
		lw := cells.Width(line)
		if lw > w {
			line = cells.Truncate(line, w)
			lw = cells.Width(line)
		}
		if styled != nil {
			line = styled(line)
		}
		body, widths = append(body, line), append(widths, lw)
	}
	switch it, _ := p.Selected(); {
	case preview != nil:
		// The renderer is ours and trusted, but its lines reach the
		// terminal: keep colours, drop any other sequence.
		for _, line := range preview[:min(len(preview), h)] {
			add(termsafe.KeepSGR(line), nil)
		}
	case p.errKey != "" && p.errKey == it.Key:
		wrapped := cells.WrapLines(cells.Fold(p.errText), max(w-2, 1))
		for _, line := range wrapped[:min(len(wrapped), h)] {
			add(line, func(s string) string { return st.Error.Render(s) })
		}
	default:
		add("…", func(s string) string { return st.Muted.Render(s) })
	}
	widest := 0
	for _, lw := range widths {
		widest = max(widest, lw)
	}
	top := (h - len(body)) / 2
	pad := (w - widest) / 2
	left := cells.Spaces(pad)
	for i := range out {
		if j := i - top; j >= 0 && j < len(body) {
			out[i] = left + body[j] + cells.Spaces(w-pad-widths[j])
		} else {
			out[i] = cells.Spaces(w)
		}
	}
	if preview != nil {
		p.cache.pvFirst, p.cache.pvLen, p.cache.pvW, p.cache.pvH, p.cache.pvLines = first, len(preview), w, h, out
	}
	return out
}
