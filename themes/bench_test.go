package themes

import (
	"strings"
	"testing"

	"charm.land/glamour/v2"
)

// answer20KB is ~20 KB of answer-like Markdown: prose, lists, a quote, a
// table and highlighted Go code, repeated.
func answer20KB(b *testing.B) string {
	md := sampleMarkdown(b)
	return strings.Repeat(md+"\n", 20*1024/len(md)+1)[:20*1024]
}

// BenchmarkGlamour20KB renders the same 20 KB answer at 80 columns with
// glamour's standard dark style, with this package's dark style through
// glamour alone, and through Renderer.Render (Markdown sanitising, glamour,
// KeepSGR and Tidy). out-bytes is the size of the rendered text; cpu-ms/op
// is process CPU time per render (GC included), steadier than wall time on
// a busy machine.
func BenchmarkGlamour20KB(b *testing.B) {
	md := answer20KB(b)
	th := darkTheme()
	RegisterChroma(th.Syntax)
	std, err := glamour.NewTermRenderer(glamour.WithStandardStyle("dark"), glamour.WithWordWrap(80))
	if err != nil {
		b.Fatal(err)
	}
	raw, err := glamour.NewTermRenderer(glamour.WithStyles(th.Glamour(false)), glamour.WithWordWrap(80),
		glamour.WithChromaFormatter(ChromaFormatter))
	if err != nil {
		b.Fatal(err)
	}
	full, err := th.NewRenderer(80, false)
	if err != nil {
		b.Fatal(err)
	}
	plain, err := th.NewRenderer(80, true)
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name   string
		render func(string) (string, error)
	}{
		{"glamour-standard-dark", std.Render},
		{"parley-dark-glamour-only", raw.Render},
		{"parley-dark-Renderer", full.Render},
		{"parley-nocolor-Renderer", plain.Render},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(md)))
			var out string
			start := cpuTime()
			for b.Loop() {
				var err error
				if out, err = c.render(md); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(out)), "out-bytes")
			if cpu := cpuTime() - start; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			}
		})
	}
}

func BenchmarkTidy(b *testing.B) {
	md := answer20KB(b)
	r, err := glamour.NewTermRenderer(glamour.WithStyles(darkTheme().Glamour(false)), glamour.WithWordWrap(80))
	if err != nil {
		b.Fatal(err)
	}
	out, err := r.Render(md)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		_ = Tidy(out)
	}
}

func BenchmarkStyles(b *testing.B) {
	th := darkTheme()
	b.ReportAllocs()
	for b.Loop() {
		_ = th.Styles(false)
	}
}
