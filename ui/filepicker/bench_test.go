package filepicker

import (
	"fmt"
	"testing"
)

// BenchmarkView is one frame of the picker over a folder of 5,000 images
// at 120×40 with the preview beside the list: unchanged, and after a move
// (the preview area shows "…" until the root answers).
func BenchmarkView(b *testing.B) {
	p, _ := New(testCtx(b), Options{Dir: b.TempDir(), Previews: true})
	p.SetSize(120, 40)
	entries := make([]entry, 5000)
	for i := range entries {
		entries[i] = entry{name: fmt.Sprintf("Screenshot 2026-11-%02d at %05d.png", i%30+1, i), size: int64(100_000 + i*977)}
	}
	p.Update(listedMsg{p: p, gen: p.gen, dir: p.opts.Dir, entries: entries})
	_ = p.View()
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = p.View()
		}
	})
	b.Run("after a move", func(b *testing.B) {
		d, u := key(b, down), key(b, up)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				p.Update(d)
			} else {
				p.Update(u)
			}
			_ = p.View()
		}
	})
}
