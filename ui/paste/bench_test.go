package paste

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse measures the work Parse does on the paste sizes it
// accepts: a drop of MaxPaths quoted image paths (no file system), a drop
// of MaxPaths text files (a stat each), and text just under MaxLen whose
// every line starts like a path (each reading gets far before failing).
func BenchmarkParse(b *testing.B) {
	drop := strings.Repeat("'/home/ada/Pictures/Screen Shot 2026-11-23 at 10.00.00.png' ", MaxPaths)
	line := "/home/ada/notes/a line that looks like a path and then is not\n"
	text := strings.Repeat(line, (MaxLen-1)/len(line))
	dir := b.TempDir()
	var files strings.Builder
	for i := range MaxPaths {
		p := filepath.Join(dir, fmt.Sprintf("notes %03d.md", i))
		if err := os.WriteFile(p, []byte("# notes\n"), 0o600); err != nil {
			b.Fatal(err)
		}
		files.WriteString("'" + p + "' ")
	}
	for _, bb := range []struct {
		name, in string
		want     Kind
	}{{"drop-100-paths", drop, Paths}, {"drop-100-text-files", files.String(), Paths}, {"text-64KiB", text, Text}} {
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
