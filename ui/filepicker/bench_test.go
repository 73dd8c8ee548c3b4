package filepicker

import (
	"fmt"
	"testing"
)

// BenchmarkView is one frame of the picker over a folder of 5,000 files
// at 120×40 with the preview beside the list: unchanged, and after a move
// (the preview area shows "…" until the root answers).
func BenchmarkView(b *testing.B) {
	p, _ := New(testCtx(b), Options{Dir: b.TempDir(), Previews: true})
	p.SetSize(120, 40)
	entries := make([]entry, 5000)
	for i := range entries {
		entries[i] = entry{name: fmt.Sprintf("Screenshot 2026-11-%02d at %05d.png", i%30+1, i), size: int64(100_000 + i*977),
			kind: [...]fileKind{kindImage, kindText, kindBinary, kindUnknown}[i%4]}
	}
	p.update(listedMsg{p: p, gen: p.gen, dir: p.opts.Dir, entries: entries})
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
				p.update(d)
			} else {
				p.update(u)
			}
			_ = p.View()
		}
	})
}

// BenchmarkFolder is a real folder of 5,000 files (4,000 text, 1,000
// PNG), from the page cache: the read that shows it (the listing and the
// first screen's kinds, off the UI goroutine), the background look at
// every file (batches and their list updates included), and one batch's
// update of the list, the part the UI goroutine does.
func BenchmarkFolder(b *testing.B) {
	dir := b.TempDir()
	png := pngBytes(b, 6, 4)
	for i := range 5000 {
		if i%5 == 0 {
			writeFile(b, dir, fmt.Sprintf("shot %04d.png", i), png)
		} else {
			writeFile(b, dir, fmt.Sprintf("notes %04d.md", i), []byte("# notes\n\nsome text\n"))
		}
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			p, cmd := New(testCtx(b), Options{Dir: dir})
			if msg := cmd().(listedMsg); len(msg.entries) != 5000 || msg.entries[0].kind == kindUnknown {
				b.Fatalf("%d entries", len(msg.entries))
			}
			_ = p
		}
	})
	b.Run("look at all", func(b *testing.B) {
		for b.Loop() {
			p, cmd := New(testCtx(b), Options{Dir: dir})
			p.SetSize(120, 40)
			_, c := p.update(cmd())
			for c != nil {
				_, c = p.update(c())
			}
			if e := p.list.Items()[4999]; e.kind == kindUnknown {
				b.Fatalf("%s not looked at", e.name)
			}
		}
	})
	b.Run("one batch's update", func(b *testing.B) {
		p, cmd := New(testCtx(b), Options{Dir: dir})
		p.SetSize(120, 40)
		msg := cmd().(listedMsg)
		p.update(msg)
		found := make([]sniffed, 0, sniffBatch)
		for _, e := range msg.entries[firstSniff : firstSniff+sniffBatch] {
			found = append(found, sniffed{name: e.name, kind: kindText})
		}
		b.ReportAllocs()
		for b.Loop() {
			p.update(sniffedMsg{p: p, gen: p.gen, found: found, stopped: true})
		}
	})
}
