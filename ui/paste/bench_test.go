package paste

import (
	"strings"
	"testing"
)

// BenchmarkParse measures the work Parse does on the paste sizes it
// accepts: a drop of MaxPaths quoted paths, and text just under MaxLen
// whose every line starts like a path (each reading gets far before
// failing).
func BenchmarkParse(b *testing.B) {
	drop := strings.Repeat("'/home/ada/Pictures/Screen Shot 2026-11-23 at 10.00.00.png' ", MaxPaths)
	line := "/home/ada/notes/a line that looks like a path and then is not\n"
	text := strings.Repeat(line, (MaxLen-1)/len(line))
	for _, bb := range []struct {
		name, in string
		want     Kind
	}{{"drop-100-paths", drop, Paths}, {"text-64KiB", text, Text}} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(bb.in)))
			for b.Loop() {
				if r := Parse(bb.in, "/home/ada"); r.Kind != bb.want {
					b.Fatalf("Parse = %v, want %v", r.Kind, bb.want)
				}
			}
		})
	}
}
