package imageform

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
)

// labelWidth is the column of the field names.
const labelWidth = 10

// innerWidth is the width inside the box's border and padding.
func (f *Form) innerWidth() int { return max(min(f.w-4, 72), 20) }

// View draws the form's box centred in exactly its size (SetSize).
func (f *Form) View() string {
	if f.w <= 0 || f.h <= 0 {
		return ""
	}
	box := f.box()
	if f.cache.view != "" {
		return f.cache.view
	}
	bw := 0
	if len(box) > 0 {
		bw = cells.Width(box[0])
	}
	x, y := max((f.w-bw)/2, 0), max((f.h-len(box))/2, 0)
	lines := make([]string, f.h)
	for i := range lines {
		if j := i - y; j >= 0 && j < len(box) {
			lines[i] = cells.Fit(cells.Spaces(x)+box[j], f.w)
		} else {
			lines[i] = cells.Spaces(f.w)
		}
	}
	f.cache.view = strings.Join(lines, "\n")
	return f.cache.view
}

// Box draws the box alone and where it goes in the area, for laying it
// over the transcript; it is cut to the area when the area is smaller.
// Draw is the form's box and where it goes in its rectangle
// (uictx.Component).
func (f *Form) Draw() (box string, x, y int) { return f.Box() }

// Box is the form's box and where it goes in its rectangle.
func (f *Form) Box() (box string, x, y int) {
	lines := append([]string(nil), f.box()...) // the cache's lines stay whole
	if len(lines) == 0 {
		return "", 0, 0
	}
	if len(lines) > f.h {
		lines = lines[:f.h]
	}
	bw := cells.Width(lines[0])
	if bw > f.w {
		for i, l := range lines {
			lines[i] = cells.Truncate(l, f.w)
		}
		bw = f.w
	}
	return strings.Join(lines, "\n"), max((f.w-bw)/2, 0), max((f.h-len(lines))/2, 0)
}

// box is the form's box, its lines all one width, cached until a change.
func (f *Form) box() []string {
	if c := f.cache; c.ok && c.rev == f.rev && c.gen == f.ctx.StyleGen {
		return c.box
	}
	st := &f.ctx.Styles
	iw := f.innerWidth()
	var lines []string
	add := func(s string) { lines = append(lines, cells.Fit(s, iw)) }
	add(st.OverlayTitle.Render("Make images"))
	add("")
	for i, name := range labels() {
		label := fmt.Sprintf("%-*s", labelWidth, name)
		if i == f.focus {
			label = st.Accent.Bold(true).Render(label)
		} else {
			label = st.Muted.Render(label)
		}
		add(label + " " + f.fields[i].View())
	}
	add("")
	add(f.modelNote(iw))
	if f.err != "" {
		for _, l := range strings.Split(ansi.Wrap(cells.Fold(f.err), iw, ""), "\n") {
			add(st.Error.Render(l))
		}
	}
	add(f.ctx.HintLine(f.Hints(), iw))
	b := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
		BorderForeground(st.Overlay.GetBorderTopForeground()).Padding(0, 1).
		Render(strings.Join(lines, "\n"))
	out := strings.Split(b, "\n")
	f.cache = viewCache{rev: f.rev, gen: f.ctx.StyleGen, ok: true, box: out}
	return out
}

// modelNote helps with the model and size fields: the models that can
// generate, or the sizes the chosen model makes.
func (f *Form) modelNote(w int) string {
	st := &f.ctx.Styles
	model := strings.TrimSpace(f.fields[fieldModel].Value())
	var sizes []string
	if f.opts.Sizes != nil && model != "" {
		sizes = f.opts.Sizes(model)
	}
	switch {
	case f.focus == fieldModel || model == "":
		if len(f.opts.Models) > 0 {
			return st.Muted.Render(cells.Truncate(cells.OneLine("can generate: "+strings.Join(f.opts.Models, ", ")), w))
		}
		return st.Muted.Render(cells.Truncate("no model is known to generate; type one the gateway offers", w))
	case len(sizes) > 0:
		return st.Muted.Render(cells.Truncate(cells.OneLine(model+" makes "+strings.Join(sizes, ", ")), w))
	}
	return ""
}
