package preview

import (
	"image"
	"image/color"
	"regexp"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"parley/media/mediatest"
)

var sixelHeadRE = regexp.MustCompile(`^\x1bP0;1;0q"1;1;(\d+);(\d+)`)

// A sixel picture fits the largest sixel image the terminal said it
// draws whole (XTSMGRAPHICS): xterm 379 answers 1000×1000 and crops what is
// larger, so a wide screenshot in a wide pane was cut off on the right.
// The picture keeps its aspect and stays centred in its area; without a
// limit it takes the area.
func TestSixelFitsTheTerminalsGeometry(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1600, 800))
	for y := range 800 {
		for x := range 1600 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x / 7), uint8(y / 4), 90, 255})
		}
	}
	data := mediatest.PNG(t, img)
	base := Options{Mode: Sixel, Profile: colorprofile.TrueColor, CellWidth: 10, CellHeight: 20}
	cache := NewCache(0, 0)

	whole, err := cache.Render(NewSource(data), 150, 40, base)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Cols != 150 || whole.staged.pal.W != 1500 {
		t.Fatalf("without a limit: %d cells, %d pixels wide; want the area's 150, 1500", whole.Cols, whole.staged.pal.W)
	}

	limited := base
	limited.SixelWidth, limited.SixelHeight = 1000, 1000
	r, err := cache.Render(NewSource(data), 150, 40, limited)
	if err != nil {
		t.Fatal(err)
	}
	if r.staged.pal.W > 1000 || r.staged.pal.H > 1000 || r.Cols != 100 || r.Rows != 25 {
		t.Errorf("limited to 1000×1000: %d×%d cells, %d×%d pixels; want 100×25 cells within 1000×1000 pixels",
			r.Cols, r.Rows, r.staged.pal.W, r.staged.pal.H)
	}
	if r.X != (150-r.Cols)/2 || len(r.Lines) != 40 {
		t.Errorf("placed at column %d of %d lines, want centred in the area", r.X, len(r.Lines))
	}
	seq, err := r.staged.rows(r, 0, r.Rows)
	if err != nil {
		t.Fatal(err)
	}
	if m := sixelHeadRE.FindStringSubmatch(seq); m == nil || m[1] != "1000" || m[2] != "500" {
		t.Errorf("raster attributes %q, want 1000×500", seq[:min(len(seq), 40)])
	}

	// A terminal that takes small pictures only: at least a cell.
	tiny := base
	tiny.SixelWidth, tiny.SixelHeight = 5, 5
	if r, err := cache.Render(NewSource(data), 150, 40, tiny); err != nil || r.Cols != 1 || r.Rows != 1 {
		t.Errorf("limited to 5×5 pixels: %d×%d cells, %v", r.Cols, r.Rows, err)
	}
}
