// Package preview draws images in the terminal for the chat: the file
// picker, the attachment chips, the transcript and the image pane all use
// it. An image becomes Unicode half blocks (▀: the top pixel is the
// foreground colour, the bottom one the background), in true colour, 256
// colours, or shades without colour, scaled to the cells it is given with
// its aspect ratio kept. Decoding goes through media's budget, and the
// result is cached by the image's hash and the cells asked for; rendering
// runs in a tea.Cmd, never in Update.
//
// Only sequences this package builds itself (SGR colours) reach the
// terminal through it; nothing from the image file does.
package preview

import (
	"crypto/sha256"
	"image"
	"image/color"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"parley/media"
)

// Mode is how images are shown.
type Mode int

const (
	// Off shows no images (a one-line label stands in).
	Off Mode = iota
	// Blocks draws Unicode half blocks.
	Blocks
)

// Select reads the images setting ("auto", "blocks", "off"; "" is auto)
// and the environment. Half blocks work in every terminal, tmux and SSH
// included; TERM=dumb shows none.
func Select(setting string, getenv func(string) string) Mode {
	switch strings.ToLower(strings.TrimSpace(setting)) {
	case "off":
		return Off
	case "blocks", "kitty":
		// kitty's graphics protocol is not drawn yet: half blocks show the
		// same image everywhere.
		return Blocks
	}
	if getenv != nil && getenv("TERM") == "dumb" {
		return Off
	}
	return Blocks
}

// Options shape one rendering.
type Options struct {
	// Profile is the terminal's colour profile: TrueColor, ANSI256, ANSI
	// (16 colours) or Ascii/NoTTY (no colour: shades).
	Profile colorprofile.Profile
	// Background is what transparent pixels are laid over.
	Background color.Color
	// Budget bounds decoding (media.DecodeBudget when zero).
	Budget int64
}

// Rendered is an image drawn into cells: exactly h lines of exactly w
// cells (the image centred, padded with spaces).
type Rendered struct {
	Lines []string
	// Width and Height are the image's pixel size.
	Width, Height int
}

// Render decodes data (within the budget) and draws it into w×h cells.
func Render(data []byte, w, h int, opts Options) (Rendered, error) {
	if w <= 0 || h <= 0 {
		return Rendered{}, nil
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = media.DecodeBudget
	}
	img, info, err := media.Decode(data, budget)
	if err != nil {
		return Rendered{}, err
	}
	img = media.Orient(img, media.Orientation(data))
	b := img.Bounds()
	pw, ph := fit(b.Dx(), b.Dy(), w, h*2)
	scaled := shrink(img, pw, ph)
	return Rendered{Lines: draw(scaled, w, h, opts), Width: info.Width, Height: info.Height}, nil
}

// samples is how many source pixels, per side, are averaged for one pixel
// of a preview: a few cells of a terminal show no more, and sampling keeps
// a preview of a 12-megapixel image to a few thousand reads.
const samples = 4

// shrink scales src to w×h by averaging a grid of samples in each pixel's
// box (media.Scale's filter is for images sent to a model, and costs tens
// of milliseconds on a screenshot).
func shrink(src image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	for y := range h {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := range w {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			var r, g, bl, a, n uint32
			for sy := range samples {
				py := y0 + (y1-y0)*(2*sy+1)/(2*samples)
				for sx := range samples {
					px := x0 + (x1-x0)*(2*sx+1)/(2*samples)
					cr, cg, cb, ca := src.At(b.Min.X+px, b.Min.Y+py).RGBA()
					r, g, bl, a, n = r+cr, g+cg, bl+cb, a+ca, n+1
				}
			}
			i := dst.PixOffset(x, y)
			dst.Pix[i] = uint8(r / n >> 8)
			dst.Pix[i+1] = uint8(g / n >> 8)
			dst.Pix[i+2] = uint8(bl / n >> 8)
			dst.Pix[i+3] = uint8(a / n >> 8)
		}
	}
	return dst
}

// fit is the largest pixel size within maxW×maxH with the aspect ratio of
// w×h (a cell is one pixel wide and two tall).
func fit(w, h, maxW, maxH int) (int, int) {
	if w <= 0 || h <= 0 {
		return 1, 1
	}
	pw, ph := maxW, h*maxW/w
	if ph > maxH {
		pw, ph = w*maxH/h, maxH
	}
	return max(pw, 1), max(ph, 1)
}

// draw turns pixels into half-block lines w cells wide, h lines tall.
func draw(img *image.RGBA, w, h int, opts Options) []string {
	bg := opts.Background
	if bg == nil {
		bg = color.Black
	}
	br, bgG, bb, _ := bg.RGBA()
	back := [3]uint8{uint8(br >> 8), uint8(bgG >> 8), uint8(bb >> 8)}
	b := img.Bounds()
	pw, ph := b.Dx(), b.Dy()
	rows := (ph + 1) / 2
	left := (w - pw) / 2
	top := (h - rows) / 2
	lines := make([]string, h)
	var sb strings.Builder
	for y := range h {
		r := y - top
		if r < 0 || r >= rows {
			lines[y] = strings.Repeat(" ", w)
			continue
		}
		sb.Reset()
		sb.WriteString(strings.Repeat(" ", left))
		for x := range pw {
			upper := pixel(img, x, 2*r, back)
			lower := back
			if 2*r+1 < ph {
				lower = pixel(img, x, 2*r+1, back)
			}
			cell(&sb, upper, lower, opts.Profile)
		}
		if opts.Profile > colorprofile.Ascii {
			sb.WriteString("\x1b[m")
		}
		sb.WriteString(strings.Repeat(" ", w-left-pw))
		lines[y] = sb.String()
	}
	return lines
}

// pixel is the colour at (x, y), laid over the background.
func pixel(img *image.RGBA, x, y int, back [3]uint8) [3]uint8 {
	i := img.PixOffset(x, y)
	r, g, b, a := img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]
	if a == 255 {
		return [3]uint8{r, g, b}
	}
	// Pix is premultiplied: add the background's share.
	inv := 255 - uint32(a)
	return [3]uint8{
		uint8(uint32(r) + uint32(back[0])*inv/255),
		uint8(uint32(g) + uint32(back[1])*inv/255),
		uint8(uint32(b) + uint32(back[2])*inv/255),
	}
}

// shades draw an image without colour, darkest first.
var shades = []string{" ", "░", "▒", "▓", "█"}

// cell writes one cell: the upper pixel as the foreground of ▀, the lower
// one as its background.
func cell(sb *strings.Builder, up, lo [3]uint8, p colorprofile.Profile) {
	switch {
	case p >= colorprofile.TrueColor:
		sb.WriteString("\x1b[38;2;")
		writeRGB(sb, up)
		sb.WriteString(";48;2;")
		writeRGB(sb, lo)
		sb.WriteString("m▀")
	case p >= colorprofile.ANSI:
		// 256 colours; a 16-colour terminal gets the same codes, which
		// every 16-colour terminal this side of the 1990s understands.
		sb.WriteString("\x1b[38;5;")
		sb.WriteString(strconv.Itoa(ansi256(up)))
		sb.WriteString(";48;5;")
		sb.WriteString(strconv.Itoa(ansi256(lo)))
		sb.WriteString("m▀")
	default:
		l := (luma(up) + luma(lo)) / 2
		sb.WriteString(shades[min(l*len(shades)/256, len(shades)-1)])
	}
}

func writeRGB(sb *strings.Builder, c [3]uint8) {
	sb.WriteString(strconv.Itoa(int(c[0])))
	sb.WriteByte(';')
	sb.WriteString(strconv.Itoa(int(c[1])))
	sb.WriteByte(';')
	sb.WriteString(strconv.Itoa(int(c[2])))
}

func luma(c [3]uint8) int { return (299*int(c[0]) + 587*int(c[1]) + 114*int(c[2])) / 1000 }

// ansi256 is the nearest colour of the 6×6×6 cube or the grey ramp.
func ansi256(c [3]uint8) int {
	q := func(v uint8) int {
		if v < 48 {
			return 0
		}
		if v < 115 {
			return 1
		}
		return int(v-35) / 40
	}
	r, g, b := q(c[0]), q(c[1]), q(c[2])
	cube := 16 + 36*r + 6*g + b
	levels := [6]int{0, 95, 135, 175, 215, 255}
	cr, cg, cb := levels[r], levels[g], levels[b]
	avg := (int(c[0]) + int(c[1]) + int(c[2])) / 3
	grey := 232 + min(max((avg-8)/10, 0), 23)
	gv := 8 + 10*(grey-232)
	dist := func(x, y, z int) int {
		dr, dg, db := int(c[0])-x, int(c[1])-y, int(c[2])-z
		return dr*dr + dg*dg + db*db
	}
	if dist(gv, gv, gv) < dist(cr, cg, cb) {
		return grey
	}
	return cube
}

// Key names a rendering for the cache: the image's hash, the cells and the
// look.
type Key struct {
	Hash    [sha256.Size]byte
	W, H    int
	Profile colorprofile.Profile
	Back    [3]uint8
}

// KeyFor is the cache key of data drawn into w×h cells with opts.
func KeyFor(data []byte, w, h int, opts Options) Key {
	k := Key{Hash: sha256.Sum256(data), W: w, H: h, Profile: opts.Profile}
	if opts.Background != nil {
		r, g, b, _ := opts.Background.RGBA()
		k.Back = [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
	}
	return k
}
