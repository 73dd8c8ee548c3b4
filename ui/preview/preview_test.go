package preview

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

func encode(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A 2×2 image of known pixels renders to known cells: red over blue, and
// green over a transparent pixel laid over the background.
func TestHalfBlocksGolden(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(0, 1, color.NRGBA{0, 0, 255, 255})
	img.SetNRGBA(1, 0, color.NRGBA{0, 255, 0, 255})
	img.SetNRGBA(1, 1, color.NRGBA{0, 0, 0, 0})
	r, err := Render(encode(t, img), 2, 1, Options{Profile: colorprofile.TrueColor, Background: color.RGBA{10, 20, 30, 255}})
	if err != nil {
		t.Fatal(err)
	}
	want := "\x1b[38;2;255;0;0;48;2;0;0;255m▀\x1b[38;2;0;255;0;48;2;10;20;30m▀\x1b[m"
	if len(r.Lines) != 1 || r.Lines[0] != want || r.Width != 2 || r.Height != 2 {
		t.Fatalf("got %q, want %q", r.Lines, want)
	}
	r256, _ := Render(encode(t, img), 2, 1, Options{Profile: colorprofile.ANSI256})
	if want := "\x1b[38;5;196;48;5;21m▀\x1b[38;5;46;48;5;16m▀\x1b[m"; r256.Lines[0] != want {
		t.Fatalf("256 colours: %q, want %q", r256.Lines[0], want)
	}
	plain, _ := Render(encode(t, img), 2, 1, Options{Profile: colorprofile.Ascii})
	if strings.ContainsRune(plain.Lines[0], 0x1b) || ansi.StringWidth(plain.Lines[0]) != 2 {
		t.Fatalf("no colour: %q", plain.Lines[0])
	}
}

// The picture keeps its aspect ratio and is centred in exactly the cells
// asked for.
func TestAspectAndSize(t *testing.T) {
	wide := encode(t, image.NewGray(image.Rect(0, 0, 400, 100)))
	r, err := Render(wide, 40, 20, Options{Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != 20 {
		t.Fatalf("%d lines", len(r.Lines))
	}
	drawn := 0
	for _, l := range r.Lines {
		if w := ansi.StringWidth(l); w != 40 {
			t.Fatalf("line of %d cells", w)
		}
		if strings.Contains(l, "▀") {
			drawn++
		}
	}
	// 400×100 into 40 cells wide: 40×10 pixels, 5 rows of half blocks.
	if drawn != 5 {
		t.Fatalf("%d rows drawn, want 5", drawn)
	}
}

// A header that claims too many pixels is refused, never decoded.
func TestBudget(t *testing.T) {
	data := encode(t, image.NewGray(image.Rect(0, 0, 300, 300)))
	if _, err := Render(data, 10, 10, Options{Budget: 1000}); err == nil {
		t.Fatal("rendered past the budget")
	}
}

func TestSelect(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tc := range []struct {
		setting string
		env     map[string]string
		want    Mode
	}{
		{"", map[string]string{"TERM": "xterm-256color"}, Blocks},
		{"auto", map[string]string{"TERM": "dumb"}, Off},
		{"off", map[string]string{"TERM": "xterm-kitty"}, Off},
		{"blocks", map[string]string{"TMUX": "/tmp/tmux"}, Blocks},
	} {
		if got := Select(tc.setting, env(tc.env)); got != tc.want {
			t.Errorf("Select(%q, %v) = %v, want %v", tc.setting, tc.env, got, tc.want)
		}
	}
}

func TestCache(t *testing.T) {
	c := NewCache(2)
	data := encode(t, image.NewGray(image.Rect(0, 0, 8, 8)))
	opts := Options{Profile: colorprofile.TrueColor}
	first, err := c.Render(data, 4, 2, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(KeyFor(data, 4, 2, opts)); !ok {
		t.Fatal("not cached")
	}
	again, _ := c.Render(data, 4, 2, opts)
	if strings.Join(again.Lines, "\n") != strings.Join(first.Lines, "\n") {
		t.Fatal("cached rendering differs")
	}
	c.Render(data, 5, 2, opts)
	c.Render(data, 6, 2, opts)
	if _, ok := c.Get(KeyFor(data, 4, 2, opts)); ok {
		t.Fatal("the least recently used rendering was kept past the size")
	}
}

func photo(t testing.TB, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	return encode(t, img)
}

// screenshot is a 2048×1536 PNG like a screen: flat panels, lines of
// "text" in a few colours.
func screenshot(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2048, 1536))
	for y := 0; y < 1536; y++ {
		for x := 0; x < 2048; x++ {
			c := color.RGBA{30, 30, 36, 255}
			if x > 300 {
				c = color.RGBA{245, 245, 245, 255}
			}
			if y%24 < 14 && x%9 < 6 && (x/9+y/24)%7 != 0 && x > 320 && x < 1900 {
				c = color.RGBA{40, 40, 40, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return encode(t, img)
}

// BenchmarkPreview2048x1536 is a 2048×1536 screenshot into 60×20 cells,
// decoded and scaled; Photo is a noisy image that compresses badly (the
// decoder's worst case); Cached is the screenshot from the cache.
func BenchmarkPreview2048x1536(b *testing.B) {
	data := screenshot(b)
	opts := Options{Profile: colorprofile.TrueColor}
	for b.Loop() {
		if _, err := Render(data, 60, 20, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreview2048x1536Photo(b *testing.B) {
	data := photo(b, 2048, 1536)
	opts := Options{Profile: colorprofile.TrueColor}
	for b.Loop() {
		if _, err := Render(data, 60, 20, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreviewCached(b *testing.B) {
	data := screenshot(b)
	opts := Options{Profile: colorprofile.TrueColor}
	c := NewCache(8)
	if _, err := c.Render(data, 60, 20, opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Render(data, 60, 20, opts); err != nil {
			b.Fatal(err)
		}
	}
}
