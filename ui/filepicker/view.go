package filepicker

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/internal/bytesize"
	"parley/internal/fserr"
	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/list"
	"parley/ui/uictx"
)

// sideMin is the width from which the preview goes beside the list.
const sideMin = 70

// rows is the list's height: the screen less the title, the filter, the
// status lines and the keys.
func (p *Picker) rows() int { return max(p.h-3-p.statusH, 0) }

// listWidth leaves room for the preview beside the list when there is
// one and the screen is wide enough.
func (p *Picker) listWidth() int {
	if p.opts.Previews && p.w >= sideMin {
		return p.w * 11 / 20
	}
	return p.w
}

// previewBox is the preview's size in cells (0×0 when there is none).
func (p *Picker) previewBox() (w, h int) {
	lw := p.listWidth()
	if lw == p.w {
		return 0, 0
	}
	return p.w - lw - 2, p.rows()
}

// layout hands the parts their sizes after any change.
func (p *Picker) layout() {
	p.status = p.statusLines()
	p.statusH = max(len(p.status), 1)
	p.list.SetSize(p.listWidth(), p.rows())
	p.filter.SetWidth(p.w)
	if p.loading && p.list.Total() == 0 {
		p.list.SetStatus("reading the folder…")
	} else {
		p.list.SetStatus("")
	}
	p.rev++
}

// want is the preview the highlighted row needs from the root now: an
// image file's, in the preview's box; nothing for a folder, a file that
// is not an image (or not known to be one yet), or when there is no box.
func (p *Picker) want() PreviewRequest {
	pw, ph := p.previewBox()
	e, ok := p.list.Selected()
	if !ok || e.kind != kindImage || pw < 4 || ph < 2 || p.loading {
		return PreviewRequest{}
	}
	return PreviewRequest{Path: filepath.Join(p.dir, e.name), W: pw, H: ph}
}

// previewRequest is a request for the root when what the preview needs
// changed since the last one.
func (p *Picker) previewRequest() *PreviewRequest {
	w := p.want()
	if w == p.asked || w.Path == "" {
		return nil
	}
	p.asked = w
	return &w
}

// View draws the picker in exactly its size.
// Draw is the picker filling its rectangle (uictx.Component).
func (p *Picker) Draw() (string, int, int) { return p.View(), 0, 0 }

// View is the picker, drawn into its whole rectangle.
func (p *Picker) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	if v := p.view; v.ok && v.rev == p.rev && v.gen == p.ctx.StyleGen {
		return v.out
	}
	out := p.render()
	p.view = viewCache{rev: p.rev, gen: p.ctx.StyleGen, ok: true, out: out}
	return out
}

func (p *Picker) render() string {
	w := p.w
	lines := make([]string, 0, p.h)
	lines = append(lines, p.titleLine())
	if p.h >= 2 {
		lines = append(lines, p.filter.View())
	}
	if rows := p.rows(); rows > 0 {
		list := strings.Split(p.list.View(), "\n")
		pw, _ := p.previewBox()
		var side []string
		if pw > 0 {
			side = p.previewLines(pw, rows)
		}
		for i := range rows {
			row := list[i]
			if pw > 0 {
				row += "  " + side[i]
			}
			lines = append(lines, row)
		}
	}
	if p.h >= 4 {
		lines = append(lines, p.status...)
	}
	if p.h >= 3 {
		lines = append(lines, p.hints.Line(p.ctx, p.Hints(), w))
	}

	return cells.Stack(lines, w, p.h)
}

// titleLine names the folder, with the cursor's position at the right
// when the rows do not all fit.
func (p *Picker) titleLine() string {
	st := &p.ctx.Styles
	t := " Attach files · " + cells.OneLine(p.short(p.dir))
	pos := p.list.Position()
	if pos == "" || cells.Width(pos)+12 > p.w {
		return st.OverlayTitle.Render(cells.Fit(t, p.w))
	}
	return st.OverlayTitle.Render(cells.Fit(t, p.w-cells.Width(pos)-1)) + st.Muted.Render(pos+" ")
}

// statusLines say what failed, where a typed path leads, or how many
// files are chosen: one line, or a sentence wrapped on the lines it
// needs while the list keeps two rows.
func (p *Picker) statusLines() []string {
	st := &p.ctx.Styles
	switch {
	case p.err != "":
		return p.sentence(p.err, st.Error)
	case p.note != "":
		return p.sentence(p.note, st.Warning)
	}
	if path, ok := p.typedPath(); ok {
		return []string{st.Muted.Render(cells.Fit(" enter opens "+cells.OneLine(p.short(path)), p.w))}
	}
	n := len(p.marked)
	text := strconv.Itoa(n) + " chosen"
	if n == 0 {
		text = "space chooses several"
	}
	return []string{st.Muted.Render(cells.Fit(" "+text, p.w))}
}

// sentence wraps s in the status area, taking rows from the list (the
// advice at its end is what the user acts on); only a screen too short to
// hold it with two rows of the list shows what fits.
func (p *Picker) sentence(s string, style lipgloss.Style) []string {
	room := max(p.h-5, 1)
	ls := strings.Split(ansi.Wrap(cells.Fold(s), max(p.w-1, 1), ""), "\n")
	if len(ls) > room {
		ls[room-1] = strings.Join(ls[room-1:], " ")
		ls = ls[:room]
	}
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = style.Render(cells.Fit(" "+l, p.w))
	}
	return out
}

// previewLines are the preview's rows, each exactly w cells: the answer
// for what is highlighted now (an image from the root, a text file's
// first lines), a word about a folder, why a file cannot be attached, the
// reason there is no preview, or a quiet "…" while it is made. Never a
// preview of anything else.
func (p *Picker) previewLines(w, h int) []string {
	st := &p.ctx.Styles
	want := p.want()
	var body []string
	switch e, ok := p.list.Selected(); {
	case !ok:
	case e.dir:
		body = []string{st.Muted.Render(cells.Truncate("folder: enter opens it", w))}
	case !e.kind.attachable():
		body = wrapped(p.refusal(e), w, st.Muted)
	case e.kind != kindImage:
		if pk := p.peeked; pk.path != filepath.Join(p.dir, e.name) {
			body = []string{st.Muted.Render("…")}
		} else if pk.err != nil {
			body = wrapped("cannot preview "+cells.OneLine(e.name)+": "+fserr.Cause(pk.err).Error(), w, st.Error)
		} else if pk.kind == kindText {
			return p.textPreview(w, h)
		} else {
			body = []string{st.Muted.Render("…")}
		}
	case p.preview.PreviewRequest != want:
		body = []string{st.Muted.Render("…")}
	case p.preview.Err != nil:
		body = wrapped(p.preview.Err.Error(), w, st.Error)
	default:
		out := make([]string, h)
		for i := range out {
			if i < len(p.preview.Lines) {
				// The renderer is ours, but its lines reach the terminal:
				// keep colours, drop any other sequence.
				out[i] = cells.Fit(termsafe.KeepSGR(p.preview.Lines[i]), w)
			} else {
				out[i] = cells.Spaces(w)
			}
		}
		return out
	}
	out := make([]string, h)
	top := max((h-len(body))/2, 0)
	for i := range out {
		if j := i - top; j >= 0 && j < len(body) {
			out[i] = cells.Fit(cells.Spaces((w-cells.Width(body[j]))/2)+body[j], w)
		} else {
			out[i] = cells.Spaces(w)
		}
	}
	return out
}

// wrapped is a sentence in lines of at most w cells, every word kept.
func wrapped(s string, w int, style lipgloss.Style) []string {
	var out []string
	for _, l := range strings.Split(ansi.Wrap(cells.Fold(s), w, ""), "\n") {
		out = append(out, style.Render(cells.Fit(l, w)))
	}
	return out
}

// textPreview is a text file's first lines under a line that says how
// long it is (and, over Options.MaxTextBytes, that it is too large).
func (p *Picker) textPreview(w, h int) []string {
	st, pk := &p.ctx.Styles, p.peeked
	head := "text · " + bytesize.Format(pk.size) + ", its first lines"
	if pk.whole {
		head = "text · " + strconv.Itoa(pk.count) + " " + plural(pk.count, "line", "lines") + " · " + bytesize.Format(pk.size)
	}
	out := make([]string, 0, h)
	out = append(out, st.Muted.Render(cells.Fit(head, w)))
	if limit := p.opts.MaxTextBytes; limit > 0 && pk.size > limit {
		out = append(out, st.Warning.Render(cells.Fit("too large to attach (more than "+bytesize.Format(limit)+")", w)))
	}
	for _, l := range pk.lines {
		if len(out) >= h {
			break
		}
		out = append(out, st.Text.Render(cells.Fit(l, w)))
	}
	for len(out) < h {
		out = append(out, cells.Spaces(w))
	}
	return out[:h]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// renderEntry draws a row: the chosen mark, the name (a folder with a
// "/"), and for a file its kind (once its first bytes are read) and its
// size at the right. A file that cannot be attached is dim.
func renderEntry(ctx *uictx.Context, r list.Row[entry]) string {
	st := &ctx.Styles
	e, w := r.Item, r.Width
	mark := "  "
	if e.chosen {
		mark = "✓ "
	}
	name := cells.OneLine(e.name)
	info := ""
	if e.dir {
		name += "/"
	} else {
		info = fmt.Sprintf("%-6s %7s", e.kind.label(), bytesize.Format(e.size))
	}
	infoW := cells.Width(info)
	nameW := max(w-3-infoW-2, 1)
	base, hit := st.Text, st.PickerMatch
	if !e.dir && !e.kind.attachable() {
		base = st.Muted
	}
	if r.Selected {
		base = st.PickerSelected.UnsetPaddingLeft()
		hit = hit.Inherit(base)
	}
	shown := cells.Truncate(name, nameW)
	row := base.Render(" "+mark) + list.Highlight(shown, r.Hits, base, hit)
	gap := max(w-cells.Width(row)-infoW-1, 0)
	return cells.Fit(row+base.Render(cells.Spaces(gap)+info+" "), w)
}
