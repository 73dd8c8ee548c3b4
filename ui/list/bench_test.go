package list

import (
	"fmt"
	"testing"

	"parley/ui/cells"
)

// benchList is 5,000 items drawn like a picker's rows: a marker, the
// title with its matches highlighted, and a muted detail.
func benchList(b *testing.B) Model[string] {
	ctx := testCtx(b)
	st := ctx.Styles
	m := New(ctx, Options[string]{
		Text: func(s string) string { return s },
		Render: func(r Row[string]) string {
			base := st.Text
			if r.Selected {
				base = st.PickerSelected
			}
			return "▸ " + Highlight(r.Item, r.Hits, base, st.PickerMatch) + st.Muted.Render("  detail")
		},
		Typing: true,
	})
	m.SetItems(strs(5000, func(i int) string {
		return cells.OneLine(fmt.Sprintf("vendor-%02d/model-family-%04d-instruct:latest", i%37, i))
	}))
	m.SetSize(100, 40)
	return m
}

// BenchmarkView5000 is one frame of a 5,000-item list: unchanged, after
// a move of the cursor, after a jump between two screens already drawn
// once (rows from the cache), and after a jump to rows never drawn.
func BenchmarkView5000(b *testing.B) {
	m := benchList(b)
	_ = m.View()
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = m.View()
		}
	})
	b.Run("after a move", func(b *testing.B) {
		d, u := press(b, down), press(b, up)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				m.Update(d)
			} else {
				m.Update(u)
			}
			_ = m.View()
		}
	})
	b.Run("after a jump", func(b *testing.B) {
		h, e := press(b, home), press(b, end)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				m.Update(h)
			} else {
				m.Update(e)
			}
			_ = m.View()
		}
	})
	b.Run("after a jump to new rows", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i = (i + 977) % 5000
			m.SetCursor(i)
			_ = m.View()
		}
	})
}

// BenchmarkFilter5000 is typing one more letter into the filter of a
// 5,000-item list, and the frame after it.
func BenchmarkFilter5000(b *testing.B) {
	m := benchList(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i++; i%2 == 0 {
			m.SetQuery("fam 12")
		} else {
			m.SetQuery("fam 1")
		}
		_ = m.View()
	}
}
