package sixel

import (
	"image"
	"image/color"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// decode is a small sixel reader for the tests: it takes the sequence
// Encode writes and returns the size from its raster attributes and the
// colour of every pixel it paints (unpainted pixels stay zero).
func decode(t *testing.T, s string) (w, h int, pix []color.RGBA) {
	t.Helper()
	if !strings.HasPrefix(s, "\x1bP0;1;0q\"1;1;") || !strings.HasSuffix(s, "\x1b\\") {
		t.Fatalf("not a sixel sequence with 1:1 raster attributes: %.40q", s)
	}
	body := s[len("\x1bP0;1;0q\"1;1;") : len(s)-2]
	num := func() int {
		i := 0
		for i < len(body) && body[i] >= '0' && body[i] <= '9' {
			i++
		}
		n, err := strconv.Atoi(body[:i])
		if err != nil {
			t.Fatalf("expected a number at %.20q", body)
		}
		body = body[i:]
		return n
	}
	w = num()
	body = body[1:] // ;
	h = num()
	pix = make([]color.RGBA, w*h)
	pal := map[int]color.RGBA{}
	cur, x, band := 0, 0, 0
	for len(body) > 0 {
		c := body[0]
		switch {
		case c == '#':
			body = body[1:]
			n := num()
			if strings.HasPrefix(body, ";2;") {
				body = body[3:]
				r := num()
				body = body[1:]
				g := num()
				body = body[1:]
				b := num()
				pal[n] = color.RGBA{uint8(r * 255 / 100), uint8(g * 255 / 100), uint8(b * 255 / 100), 255}
			}
			cur = n
		case c == '$':
			x = 0
			body = body[1:]
		case c == '-':
			x = 0
			band++
			body = body[1:]
		case c == '!':
			body = body[1:]
			n := num()
			paint(pix, w, h, x, band, n, body[0]-63, pal[cur])
			x += n
			body = body[1:]
		case c >= 63 && c <= 126:
			paint(pix, w, h, x, band, 1, c-63, pal[cur])
			x++
			body = body[1:]
		default:
			t.Fatalf("unexpected byte %q in the sixel data", c)
		}
	}
	return w, h, pix
}

func paint(pix []color.RGBA, w, h, x, band, n int, bits byte, c color.RGBA) {
	for dx := range n {
		for dy := range 6 {
			if bits&(1<<dy) != 0 {
				y := band*6 + dy
				if y < h && x+dx < w {
					pix[y*w+x+dx] = c
				}
			}
		}
	}
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
}

// A picture of few colours keeps them, and every pixel comes back from the
// sixel data in its colour (to the palette's 1 % steps and the
// histogram's 8 levels).
func TestFewColoursRoundTrip(t *testing.T) {
	cols := []color.RGBA{{250, 250, 250, 255}, {20, 20, 20, 255}, {200, 40, 40, 255}, {30, 90, 220, 255}}
	img := image.NewRGBA(image.Rect(0, 0, 37, 23)) // neither side a multiple of six
	for y := range 23 {
		for x := range 37 {
			img.SetRGBA(x, y, cols[(x/5+y/3)%len(cols)])
		}
	}
	p, err := Quantize(img, color.RGBA{0, 0, 0, 255}, MaxColors)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Palette) != len(cols) {
		t.Fatalf("palette of %d entries for %d colours", len(p.Palette), len(cols))
	}
	seq, err := p.Encode(0, p.H)
	if err != nil {
		t.Fatal(err)
	}
	w, h, pix := decode(t, seq)
	if w != 37 || h != 23 {
		t.Fatalf("raster %dx%d, want 37x23", w, h)
	}
	for y := range 23 {
		for x := range 37 {
			if want := img.RGBAAt(x, y); !near(pix[y*w+x], want, 8) {
				t.Fatalf("pixel %d,%d: %v, want %v", x, y, pix[y*w+x], want)
			}
		}
	}
	if strings.Contains(seq, "\x1b[") || strings.Count(seq, "\x1b") != 2 {
		t.Errorf("the sequence holds escapes beyond its DCS and ST: %q", seq)
	}
}

// Rows of a picture scrolled partly out of view: the sequence is as tall
// as the rows asked for and shows them.
func TestEncodeRows(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 8, 20))
	for y := range 20 {
		for x := range 8 {
			img.SetRGBA(x, y, color.RGBA{uint8(y * 12), 0, 0, 255})
		}
	}
	p, err := Quantize(img, color.RGBA{}, MaxColors)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := p.Encode(7, 15)
	if err != nil {
		t.Fatal(err)
	}
	w, h, pix := decode(t, seq)
	if w != 8 || h != 8 {
		t.Fatalf("raster %dx%d, want 8x8", w, h)
	}
	if got, want := pix[0], img.RGBAAt(0, 7); !near(got, want, 8) {
		t.Errorf("first row %v, want row 7's %v", got, want)
	}
	if _, err := p.Encode(15, 15); err == nil {
		t.Error("no rows encoded without an error")
	}
}

// A photo-like picture of many colours gets at most MaxColors entries and
// stays close to the original on average; transparent pixels take the
// background.
func TestManyColoursAreBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for y := range 200 {
		for x := range 300 {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / 300), uint8(y * 255 / 200), uint8(r.IntN(64) + 96), 255})
		}
	}
	img.SetRGBA(0, 0, color.RGBA{}) // transparent
	p, err := Quantize(img, color.RGBA{255, 255, 255, 255}, MaxColors)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Palette) > MaxColors {
		t.Fatalf("%d palette entries", len(p.Palette))
	}
	var total int
	for y := range 200 {
		for x := range 300 {
			a, b := p.Palette[p.Pix[y*300+x]], img.RGBAAt(x, y)
			total += abs(int(a.R)-int(b.R)) + abs(int(a.G)-int(b.G)) + abs(int(a.B)-int(b.B))
		}
	}
	if mean := float64(total) / (300 * 200 * 3); mean > 12 {
		t.Errorf("mean error %.1f a channel, want at most 12", mean)
	}
	if c := p.Palette[p.Pix[0]]; !near(c, color.RGBA{255, 255, 255, 255}, 8) {
		t.Errorf("the transparent pixel is %v, want the white background", c)
	}
}

func TestRefusesWhatItCannotTake(t *testing.T) {
	if _, err := Quantize(nil, color.RGBA{}, 16); err == nil {
		t.Error("nil picture accepted")
	}
	if _, err := Quantize(image.NewRGBA(image.Rect(0, 0, 0, 5)), color.RGBA{}, 16); err == nil {
		t.Error("empty picture accepted")
	}
	big := &image.RGBA{Rect: image.Rect(0, 0, 8192, 4096)} // no pixels needed: refused from its size
	if _, err := Quantize(big, color.RGBA{}, 16); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a picture over MaxPixels: %v", err)
	}
}

func abs(v int) int { return max(v, -v) }

func BenchmarkQuantizeEncode(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	img := image.NewRGBA(image.Rect(0, 0, 480, 240))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := Quantize(img, color.RGBA{}, MaxColors)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Encode(0, p.H); err != nil {
			b.Fatal(err)
		}
	}
}
