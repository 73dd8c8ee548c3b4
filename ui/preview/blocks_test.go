package preview

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parley/media/mediatest"
)

// knownPNG is a 4x4 PNG with known pixels, transparency included:
//
//	red      green    blue     white
//	black    red      green    blue
//	navy     navy     brick    clear
//	navy     white/2  brick    clear
//
// navy is (10,20,30), brick (200,100,50), white/2 white at alpha 128,
// clear fully transparent.
func knownPNG(t *testing.T) []byte {
	t.Helper()
	navy := color.NRGBA{10, 20, 30, 255}
	brick := color.NRGBA{200, 100, 50, 255}
	clear := color.NRGBA{}
	px := [4][4]color.NRGBA{
		{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}},
		{{0, 0, 0, 255}, {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}},
		{navy, navy, brick, clear},
		{navy, {255, 255, 255, 128}, brick, clear},
	}
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			img.SetNRGBA(x, y, px[y][x])
		}
	}
	return mediatest.PNG(t, img)
}

// The golden cells below were worked out by hand from the pixels, not
// copied from the output: the top pixel of each cell is its foreground,
// the bottom one its background, colours are set only when they change
// along the line, and transparent pixels show the background (black here,
// so white/2 is grey 128).
func TestHalfBlocksGolden(t *testing.T) {
	data := knownPNG(t)
	cases := []struct {
		profile colorprofile.Profile
		want    []string
	}{
		{colorprofile.TrueColor, []string{
			"\x1b[38;2;255;0;0;48;2;0;0;0m▀\x1b[38;2;0;255;0;48;2;255;0;0m▀\x1b[38;2;0;0;255;48;2;0;255;0m▀\x1b[38;2;255;255;255;48;2;0;0;255m▀\x1b[m",
			"\x1b[38;2;10;20;30;48;2;10;20;30m▀\x1b[48;2;128;128;128m▀\x1b[38;2;200;100;50;48;2;200;100;50m▀\x1b[38;2;0;0;0;48;2;0;0;0m▀\x1b[m",
		}},
		// xterm-256: the cube for pure colours (196 red, 46 green, 21 blue,
		// 231 white, 16 black, 167 for brick), greys 233 (navy) and 244.
		{colorprofile.ANSI256, []string{
			"\x1b[38;5;196;48;5;16m▀\x1b[38;5;46;48;5;196m▀\x1b[38;5;21;48;5;46m▀\x1b[38;5;231;48;5;21m▀\x1b[m",
			"\x1b[38;5;233;48;5;233m▀\x1b[48;5;244m▀\x1b[38;5;167;48;5;167m▀\x1b[38;5;16;48;5;16m▀\x1b[m",
		}},
		// 16 colours: bright red 91/101, bright green 92/102, blue 34/44,
		// bright white 97, black 30/40, grey (bright black) 90/100; brick
		// is nearest to grey, whose background is already set.
		{colorprofile.ANSI, []string{
			"\x1b[91;40m▀\x1b[92;101m▀\x1b[34;102m▀\x1b[97;44m▀\x1b[m",
			"\x1b[30;40m▀\x1b[100m▀\x1b[90m▀\x1b[30;40m▀\x1b[m",
		}},
		// No colour on a dark background: ink follows the brightness of the
		// two pixels (Rec. 709 luma, averaged, in five steps).
		{colorprofile.ASCII, []string{" ▒▒▒", " ░▒ "}},
		{colorprofile.NoTTY, []string{" ▒▒▒", " ░▒ "}},
	}
	for _, c := range cases {
		r, err := Render(data, 4, 2, Options{Mode: Blocks, Profile: c.profile})
		if err != nil {
			t.Fatalf("%v: %v", c.profile, err)
		}
		if !equalLines(r.Lines, c.want) {
			t.Errorf("%v:\n got %q\nwant %q", c.profile, r.Lines, c.want)
		}
		assertBlock(t, r.Lines, 4, 2)
		if r.Mode != Blocks || r.Cols != 4 || r.Rows != 2 || r.X != 0 || r.Y != 0 || r.Width != 4 || r.Height != 4 || r.ID != 0 || r.Transmit != "" {
			t.Errorf("%v: rendered %+v", c.profile, r)
		}
	}
}

// Transparent pixels take the background given; on a light background the
// no-colour fallback inks darkness instead of brightness, so the clear
// corner stays blank and the white pixel too.
func TestHalfBlocksBackground(t *testing.T) {
	data := knownPNG(t)
	bg := color.RGBA{0, 0, 64, 255}
	r, err := Render(data, 4, 2, Options{Mode: Blocks, Profile: colorprofile.TrueColor, Background: bg})
	if err != nil {
		t.Fatal(err)
	}
	// white/2 over (0,0,64): 128 + 0, 128 + 0, 128 + 64*127/255 = 160.
	want := "\x1b[38;2;10;20;30;48;2;10;20;30m▀\x1b[48;2;128;128;160m▀\x1b[38;2;200;100;50;48;2;200;100;50m▀\x1b[38;2;0;0;64;48;2;0;0;64m▀\x1b[m"
	if r.Lines[1] != want {
		t.Errorf("line 2:\n got %q\nwant %q", r.Lines[1], want)
	}
	white := color.RGBA{255, 255, 255, 255}
	r, err = Render(data, 4, 2, Options{Mode: Blocks, Profile: colorprofile.ASCII, Background: white})
	if err != nil {
		t.Fatal(err)
	}
	// Ink is 255 minus the luma: row 1: red/black 27 → 228 → █,
	// green/red 118 → 137 → ▒, blue/green 101 → 154 → ▒ (▓ from 160),
	// white/blue 137 → 118 → ▒. Row 2: navy/navy 19 → █, navy over
	// white/2-over-white (255) 137 → ▒, brick 117 → ▒, clear → blank.
	wantASCII := []string{"█▒▒▒", "█▒▒ "}
	if !equalLines(r.Lines, wantASCII) {
		t.Errorf("light background, no colour:\n got %q\nwant %q", r.Lines, wantASCII)
	}
}

// A picture smaller than the area is centred in it, padded with plain
// spaces: exactly h lines of exactly w cells.
func TestHalfBlocksCentredPadding(t *testing.T) {
	r, err := Render(knownPNG(t), 9, 4, Options{Mode: Blocks, Profile: colorprofile.ASCII})
	if err != nil {
		t.Fatal(err)
	}
	// Two columns of padding on the left, three on the right, one line
	// above and one below.
	want := []string{"         ", "   ▒▒▒   ", "   ░▒    ", "         "}
	if !equalLines(r.Lines, want) {
		t.Errorf("got %q\nwant %q", r.Lines, want)
	}
	if r.X != 2 || r.Y != 1 || r.Cols != 4 || r.Rows != 2 {
		t.Errorf("box %d,%d %dx%d, want 2,1 4x2", r.X, r.Y, r.Cols, r.Rows)
	}
}

// An odd number of pixel rows leaves the last row's bottom half to the
// terminal: no background colour is set there.
func TestHalfBlocksOddRows(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 2, 3))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	img.SetRGBA(0, 2, color.RGBA{1, 2, 3, 255})
	r, err := Render(mediatest.PNG(t, img), 2, 2, Options{Mode: Blocks, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"\x1b[38;2;255;255;255;48;2;255;255;255m▀▀\x1b[m",
		"\x1b[38;2;1;2;3m▀\x1b[38;2;255;255;255m▀\x1b[m",
	}
	if !equalLines(r.Lines, want) {
		t.Errorf("got %q\nwant %q", r.Lines, want)
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// assertBlock checks the one layout rule every mode keeps, measured both
// ways the UI and terminals measure (by grapheme cluster, and code point
// by code point as terminals without mode 2027 do, the rule
// ui/cells.ForWcWidth rewrites lines by): the widths must agree, or the
// placeholders' combining marks would be stripped.
func assertBlock(t *testing.T, lines []string, w, h int) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells, want %d: %q", i, got, w, l)
		}
		if g, wc := ansi.GraphemeWidth.StringWidth(l), ansi.WcWidth.StringWidth(l); g != w || wc != w {
			t.Errorf("line %d is %d cells by grapheme and %d by code point, want %d", i, g, wc, w)
		}
		if strings.ContainsAny(l, "\n\r\t") {
			t.Errorf("line %d holds a line break or tab: %q", i, l)
		}
	}
}
