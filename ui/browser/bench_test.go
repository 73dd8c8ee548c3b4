package browser

import (
	"fmt"
	"testing"
	"time"

	"parley/session"
)

// BenchmarkView is one frame of the browser over 2,000 sessions at
// 120×40: unchanged, and after a move of the cursor.
func BenchmarkView(b *testing.B) {
	br, _ := New(testCtx(b), Options{Store: openStore(b), Now: func() time.Time { return clock }})
	br.SetSize(120, 40)
	metas := make([]session.Meta, 2000)
	for i := range metas {
		metas[i] = session.Meta{ID: fmt.Sprintf("id-%04d", i), Title: fmt.Sprintf("A conversation about topic %d", i), Model: "gpt-4o",
			Updated: clock.Add(-time.Duration(i) * time.Hour), Messages: i % 40, Preview: "**Markdown** preview of the latest `message`, number " + fmt.Sprint(i)}
	}
	br.update(listedMsg{b: br, metas: metas})
	_ = br.View()
	b.Run("unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = br.View()
		}
	})
	b.Run("after a move", func(b *testing.B) {
		d, u := key(b, down), key(b, up)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				br.update(d)
			} else {
				br.update(u)
			}
			_ = br.View()
		}
	})
}
