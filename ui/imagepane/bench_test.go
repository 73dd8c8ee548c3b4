package imagepane

import (
	"fmt"
	"strings"
	"testing"
)

// benchItems are 200 images as a long conversation has them: generated
// ones with prompts, some edited, some attached.
func benchItems() []Item {
	out := make([]Item, 200)
	for i := range out {
		it := item(fmt.Sprintf("%064x", i), i)
		it.Path = fmt.Sprintf("/home/u/Pictures/parley/20261123-1405%02d-a-red-fox-in-deep-snow-%d.png", i%60, i)
		it.Prompt = "a red fox in deep snow, watercolour, soft morning light, seen from a low angle, number " + fmt.Sprint(i)
		switch i % 3 {
		case 1:
			it.Origin, it.From = Edited, "/home/u/Pictures/fox.png"
		case 2:
			it.Origin, it.Prompt, it.Model, it.Size = Attached, "", "", ""
		}
		out[i] = it
	}
	return out
}

// halfBlocks is a preview as ui/preview draws one: each cell a half
// block with a true-colour foreground and background.
func halfBlocks(w, h int) []string {
	out := make([]string, h)
	for y := range out {
		var b strings.Builder
		for x := range w {
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm▀", x, y, 90, y, x, 160)
		}
		b.WriteString("\x1b[m")
		out[y] = b.String()
	}
	return out
}

// BenchmarkFirstFrame200 is the pane's first frame with 200 images: a new
// pane, setItems and render at 120×40, nothing cached. "no preview" is the
// frame drawn while the preview is made; "with preview" draws one of
// previewArea's size.
func BenchmarkFirstFrame200(b *testing.B) {
	ctx := testCtx(b, false)
	items := benchItems()
	probe := New(ctx, Dirs{}, true)
	probe.setItems(items)
	_, _, pw, ph := probe.previewArea(120, 40)
	for _, bc := range []struct {
		name string
		pv   []string
	}{{"no preview", nil}, {"with preview", halfBlocks(pw, ph)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := New(ctx, Dirs{}, true)
				p.setItems(items)
				if out := p.render(120, 40, bc.pv, true); len(out) == 0 {
					b.Fatal("empty frame")
				}
			}
		})
	}
}

// BenchmarkFrame200 is a later frame: unchanged, or after one move of
// the selection (the list and details are redrawn, the preview is not
// there yet).
func BenchmarkFrame200(b *testing.B) {
	ctx := testCtx(b, false)
	p := New(ctx, Dirs{}, true)
	p.setItems(benchItems())
	p.render(120, 40, nil, true)
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.render(120, 40, nil, true)
		}
	})
	b.Run("after a move", func(b *testing.B) {
		b.ReportAllocs()
		down, up := press("j"), press("k")
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				handle(p, down)
			} else {
				handle(p, up)
			}
			p.render(120, 40, nil, true)
		}
	})
}
