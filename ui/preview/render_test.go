package preview

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"parley/media"
	"parley/media/mediatest"
)

// A large photo fills the area's width with the right aspect ratio, in
// exactly h lines of w cells, and its colours land where they belong.
func TestRenderLargeImageFits(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 2400, 1800)) // left half red, right half blue
	for x := range 2400 {
		c := color.RGBA{230, 20, 20, 255}
		if x >= 1200 {
			c = color.RGBA{20, 20, 230, 255}
		}
		img.SetRGBA(x, 0, c)
	}
	for y := 1; y < 1800; y++ {
		copy(img.Pix[y*img.Stride:], img.Pix[:4*2400])
	}
	data := mediatest.JPEG(t, img, 90)
	r, err := Render(data, 60, 20, Options{Mode: Blocks, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	assertBlock(t, r.Lines, 60, 20)
	// 2400x1800 in 60x40 half-block pixels: the height limits, 53x40.
	if r.Cols != 53 || r.Rows != 20 || r.X != 3 || r.Y != 0 {
		t.Errorf("box %d,%d %dx%d, want 3,0 53x20", r.X, r.Y, r.Cols, r.Rows)
	}
	line := r.Lines[10]
	if !strings.HasPrefix(line, "   \x1b[38;2;2") || !strings.Contains(line, ";230m▀") {
		t.Errorf("line 10 does not go from red to blue: %q", line)
	}

	tall := mediatest.PNG(t, mediatest.Photo(100, 1000))
	r, err = Render(tall, 60, 20, Options{Mode: Blocks, Profile: colorprofile.ANSI256})
	if err != nil {
		t.Fatal(err)
	}
	assertBlock(t, r.Lines, 60, 20)
	if r.Cols != 4 || r.Rows != 20 { // 100x1000 into 60x40: 4x40 pixels
		t.Errorf("tall: %dx%d, want 4x20", r.Cols, r.Rows)
	}
}

// Every decoder's pixel type goes through: a GIF, a WEBP, a grey PNG, a
// 16-bit PNG, a PNG with alpha, a 4:2:0 JPEG with an EXIF turn.
func TestRenderEveryFormat(t *testing.T) {
	grey := image.NewGray(image.Rect(0, 0, 300, 200))
	for i := range grey.Pix {
		grey.Pix[i] = uint8(i)
	}
	deep := image.NewRGBA64(image.Rect(0, 0, 300, 200))
	for i := range deep.Pix {
		deep.Pix[i] = uint8(i * 7)
	}
	cases := map[string][]byte{
		"gif":          mediatest.GIF(t, 1, 300, 200),
		"webp":         mediatest.SolidWEBP(300, 200, color.NRGBA{10, 200, 30, 255}),
		"grey png":     mediatest.PNG(t, grey),
		"16-bit png":   mediatest.PNG(t, deep),
		"alpha png":    mediatest.PNG(t, noisyNRGBA(300, 200)),
		"turned jpeg":  mediatest.WithEXIFOrientation(mediatest.JPEG(t, mediatest.Photo(300, 200), 80), 8),
		"ycbcr jpeg":   mediatest.JPEG(t, mediatest.PhotoYCbCr(300, 200), 80),
		"screenshot":   mediatest.PNG(t, mediatest.Screenshot(600, 400)),
		"tiny picture": mediatest.PNG(t, mediatest.Photo(1, 1)),
	}
	for name, data := range cases {
		for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ASCII} {
			r, err := Render(data, 30, 10, Options{Mode: Blocks, Profile: p})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			assertBlock(t, r.Lines, 30, 10)
		}
	}
	r, _ := Render(cases["turned jpeg"], 30, 10, Options{Mode: Blocks, Profile: colorprofile.TrueColor})
	if r.Width != 200 || r.Height != 300 {
		t.Errorf("turned jpeg seen as %dx%d, want 200x300", r.Width, r.Height)
	}
}

func TestRenderOff(t *testing.T) {
	data := mediatest.PNG(t, mediatest.Photo(400, 300))
	r, err := Render(data, 20, 8, Options{Mode: Off})
	if err != nil {
		t.Fatal(err)
	}
	// 400x300 in 20x16 half-block pixels: 20x15, so 20x8 cells.
	want := []string{
		"┌──────────────────┐",
		"│                  │",
		"│                  │",
		"│                  │",
		"│   PNG 400×300    │",
		"│                  │",
		"│                  │",
		"└──────────────────┘",
	}
	if !equalLines(r.Lines, want) || r.Mode != Off {
		t.Errorf("got %q\nwant %q", r.Lines, want)
	}
	// Too small for an outline: the label on the middle line, the size
	// left out where it does not fit, the format cut last.
	for _, c := range []struct {
		w, h int
		want []string
	}{
		{13, 1, []string{" PNG 400×300 "}},
		{9, 2, []string{"         ", "   PNG   "}},
		{9, 3, []string{"┌──────┐ ", "│ PNG  │ ", "└──────┘ "}}, // 8x3: room for an outline
		{2, 1, []string{"PN"}},
	} {
		r, err = Render(data, c.w, c.h, Options{Mode: Off})
		if err != nil || !equalLines(r.Lines, c.want) {
			t.Errorf("%dx%d: %q, %v; want %q", c.w, c.h, r.Lines, err, c.want)
		}
	}
}

// Bad input gets a sentence, and a bomb is refused from its header
// without decoding.
func TestRenderErrors(t *testing.T) {
	png := mediatest.PNG(t, mediatest.Photo(10, 10))
	cases := []struct {
		name string
		data []byte
		w, h int
		opts Options
		want string
	}{
		{"not an image", []byte("%PDF-1.7 hello"), 10, 10, Options{Mode: Blocks}, "cannot preview the file: it is not an image (it looks like a PDF document)"},
		{"unknown bytes", []byte{1, 2, 3, 0, 5}, 10, 10, Options{Mode: Blocks}, "cannot preview the file: it is not a PNG, JPEG, WEBP or GIF image"},
		{"bomb", mediatest.ClaimPNG(t, 100000, 100000, 8, 6), 10, 10, Options{Mode: Blocks}, "cannot preview the image: it is 100000x100000 pixels (40.0 GB decoded), more than parley decodes (256.0 MB)"},
		{"bomb in kitty", mediatest.ClaimPNG(t, 100000, 100000, 8, 6), 10, 10, Options{Mode: Kitty, Profile: colorprofile.TrueColor}, "more than parley decodes"},
		{"over a small budget", png, 10, 10, Options{Mode: Blocks, Budget: media.NewBudget(100)}, "more than parley decodes (100 B)"},
		{"cut off", png[:len(png)/2], 10, 10, Options{Mode: Blocks}, "cannot preview the PNG image: it is damaged"},
		{"no area", png, 0, 10, Options{Mode: Blocks}, "cannot preview an image in 0x10 cells; the area must be 1x1 to 1000x1000"},
		{"huge area", png, 10, 1001, Options{Mode: Blocks}, "1000x1000"},
	}
	for _, c := range cases {
		var err error
		a := mediatest.Measure(func() { _, err = Render(c.data, c.w, c.h, c.opts) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if a.Total > 1<<20 {
			t.Errorf("%s: %d bytes allocated to refuse it", c.name, a.Total)
		}
	}
	var be *media.BudgetError
	_, err := Render(mediatest.ClaimPNG(t, 100000, 100000, 8, 6), 10, 10, Options{Mode: Blocks})
	if errors.As(err, &be) {
		t.Error("the budget error is worded, not passed through")
	}
}
