package filepicker

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/internal/bytesize"
	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/list"
	"parley/ui/uictx"
)

// sideMin is the width from which the preview goes beside the list.
const sideMin = 70

// rows is the list's height: the screen less the title, the filter, the
// status line and the keys.
func (p *Picker) rows() int { return max(p.h-4, 0) }

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
	p.list.SetSize(p.listWidth(), p.rows())
	p.filter.SetWidth(p.w)
	if p.loading && p.list.Total() == 0 {
		p.list.SetStatus("reading the folder…")
	} else {
		p.list.SetStatus("")
	}
	p.rev++
}

// want is the preview the highlighted row needs now: an image file's, in
// the preview's box; nothing for a folder or when there is no box.
func (p *Picker) want() PreviewRequest {
	pw, ph := p.previewBox()
	e, ok := p.list.Selected()
	if !ok || e.dir || pw < 4 || ph < 2 || p.loading {
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
		lines = append(lines, p.statusLine())
	}
	if p.h >= 3 {
		lines = append(lines, p.hints.Line(p.ctx, p.Hints(), w))
	}

	return cells.Stack(lines, w, p.h)
}

// titleLine names the folder, with the cursor's position at the right
// when the rows do not all fit.
func (p *Picker) titleLine() string {
	st := p.ctx.Styles
	t := " Attach images · " + cells.OneLine(p.short(p.dir))
	pos := p.list.Position()
	if pos == "" || cells.Width(pos)+12 > p.w {
		return st.OverlayTitle.Render(cells.Fit(t, p.w))
	}
	return st.OverlayTitle.Render(cells.Fit(t, p.w-cells.Width(pos)-1)) + st.Muted.Render(pos+" ")
}

// statusLine says what failed, where a typed path leads, or how many
// files are chosen.
func (p *Picker) statusLine() string {
	st := p.ctx.Styles
	switch {
	case p.err != "":
		return st.Error.Render(cells.Fit(" "+p.err, p.w))
	case p.note != "":
		return st.Warning.Render(cells.Fit(" "+p.note, p.w))
	}
	if path, ok := p.typedPath(); ok {
		return st.Muted.Render(cells.Fit(" enter opens "+cells.OneLine(p.short(path)), p.w))
	}
	n := len(p.marked)
	text := strconv.Itoa(n) + " chosen"
	if n == 0 {
		text = "space chooses several"
	}
	return st.Muted.Render(cells.Fit(" "+text, p.w))
}

// previewLines are the preview's rows, each exactly w cells: the answer
// for what is highlighted now, a word about a folder, the reason there is
// no preview, or a quiet "…" while it is made. Never a preview of
// anything else.
func (p *Picker) previewLines(w, h int) []string {
	st := p.ctx.Styles
	want := p.want()
	var body []string
	switch e, ok := p.list.Selected(); {
	case !ok:
	case e.dir:
		body = []string{st.Muted.Render(cells.Truncate("folder: enter opens it", w))}
	case p.preview.PreviewRequest != want:
		body = []string{st.Muted.Render("…")}
	case p.preview.Err != nil:
		for _, l := range strings.Split(ansi.Wrap(cells.Fold(p.preview.Err.Error()), w, ""), "\n") {
			body = append(body, st.Error.Render(cells.Fit(l, w)))
		}
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

// renderEntry draws a row: the chosen mark, the name (a folder with a
// "/"), and a file's size at the right.
func renderEntry(ctx *uictx.Context, r list.Row[entry]) string {
	st := ctx.Styles
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
		info = bytesize.Format(e.size)
	}
	infoW := cells.Width(info)
	nameW := max(w-3-infoW-2, 1)
	base, hit := st.Text, st.PickerMatch
	if r.Selected {
		base = st.PickerSelected.UnsetPaddingLeft()
		hit = hit.Inherit(base)
	}
	shown := cells.Truncate(name, nameW)
	row := base.Render(" "+mark) + list.Highlight(shown, r.Hits, base, hit)
	gap := max(w-cells.Width(row)-infoW-1, 0)
	return cells.Fit(row+base.Render(cells.Spaces(gap)+info+" "), w)
}
