package overlay

import (
	"fmt"
	"testing"

	"parley/api"
)

// manyModels is a gateway-sized list: 500 ids with a few capabilities.
func manyModels() []string {
	ids := make([]string, 500)
	for i := range ids {
		ids[i] = fmt.Sprintf("vendor-%02d/model-family-%03d-instruct:latest", i%37, i)
	}
	return ids
}

// BenchmarkPickerView measures one frame of an open model picker with 500
// items (only the visible rows are drawn).
func BenchmarkPickerView(b *testing.B) {
	ctx := testCtx(b, 120, 40)
	p := NewPicker(ctx, ModelItems(testCatalog(), "gpt-4o", "", manyModels()), ModelPickerOptions())
	p.SetSize(120, 40)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.View()
	}
}

// BenchmarkPickerType measures typing one character into the filter of a
// 500-item picker (refilter, rank, keep the cursor in view) plus the frame.
func BenchmarkPickerType(b *testing.B) {
	ctx := testCtx(b, 120, 40)
	p := NewPicker(ctx, ModelItems(api.NewCatalog(nil), "", "", manyModels()), ModelPickerOptions())
	p.SetSize(120, 40)
	p = typed(p, "fam")
	k := typeKeys("1")[0]
	bs := press("backspace")
	b.ReportAllocs()
	for b.Loop() {
		q, _ := p.update(k)
		_ = q.View()
		_, _ = q.update(bs)
	}
}

// BenchmarkHelpView measures one frame of the help overlay (lines are laid
// out by SetSize, not per frame).
func BenchmarkHelpView(b *testing.B) {
	ctx := testCtx(b, 80, 24)
	h := NewHelp(ctx, ctx.Keys.Groups())
	h.SetSize(80, 24)
	b.ReportAllocs()
	for b.Loop() {
		_ = h.View()
	}
}
