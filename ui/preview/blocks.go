package preview

import (
	"image"
	"image/color"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
)

// upperHalf is the half block: its foreground colour fills the top half of
// the cell, its background colour the bottom half.
const upperHalf = "▀"

// shades are the no-colour fallback: one character per cell whose ink
// covers more of the cell the more the cell's two pixels stand out from
// the background.
var shades = [5]string{" ", "░", "▒", "▓", "█"}

// colourless is the profile below which the UI shows no colour at all
// (lipgloss drops colours at NoTTY and ASCII, and treats an unknown
// profile the same way).
func colourless(p colorprofile.Profile) bool { return p < colorprofile.ANSI }

// opaque composites the premultiplied picture over the background.
func opaque(pic *image.RGBA, bg rgb) [][]rgb {
	w, h := pic.Rect.Dx(), pic.Rect.Dy()
	rows := make([][]rgb, h)
	all := make([]rgb, w*h)
	for y := range h {
		row := all[y*w : (y+1)*w]
		px := pic.Pix[y*pic.Stride:]
		for x := range row {
			r, g, b, a := int(px[4*x]), int(px[4*x+1]), int(px[4*x+2]), int(px[4*x+3])
			k := 255 - a
			row[x] = rgb{
				uint8(r + (int(bg.r)*k+127)/255),
				uint8(g + (int(bg.g)*k+127)/255),
				uint8(b + (int(bg.b)*k+127)/255),
			}
		}
		rows[y] = row
	}
	return rows
}

// blockLines draws the picture as half blocks centred in w×h cells: h
// lines of exactly w cells. Cells keep their colours from the cell before
// them, so a line carries only the colour changes; every line ends with a
// reset and stands alone. A picture with an odd number of pixel rows leaves
// the bottom half of its last row to the terminal's own background.
func blockLines(pic *image.RGBA, w, h int, profile colorprofile.Profile, bg rgb) []string {
	px := opaque(pic, bg)
	cols, rows := pic.Rect.Dx(), (pic.Rect.Dy()+1)/2
	top, left := (h-rows)/2, (w-cols)/2
	lines := make([]string, h)
	blank := strings.Repeat(" ", w)
	for i := range lines {
		lines[i] = blank
	}
	leftPad, rightPad := blank[:left], blank[:w-cols-left]
	var b strings.Builder
	for r := range rows {
		b.Reset()
		b.WriteString(leftPad)
		upper := px[2*r]
		var lower []rgb
		if 2*r+1 < len(px) {
			lower = px[2*r+1]
		}
		if colourless(profile) {
			writeShades(&b, upper, lower, bg)
		} else {
			writeHalfBlocks(&b, upper, lower, profile)
		}
		b.WriteString(rightPad)
		lines[top+r] = b.String()
	}
	return lines
}

// writeHalfBlocks writes one row of cells: upper pixels in the foreground,
// lower ones in the background (nil: the row has none, and the background
// stays the terminal's).
func writeHalfBlocks(b *strings.Builder, upper, lower []rgb, profile colorprofile.Profile) {
	fg, bg := -1, -1 // not set yet
	var params []byte
	for x, u := range upper {
		params = params[:0]
		if c := code(u, profile); c != fg {
			params = appendColour(params, c, true, profile)
			fg = c
		}
		if lower != nil {
			if c := code(lower[x], profile); c != bg {
				if len(params) > 0 {
					params = append(params, ';')
				}
				params = appendColour(params, c, false, profile)
				bg = c
			}
		}
		if len(params) > 0 {
			b.WriteString("\x1b[")
			b.Write(params)
			b.WriteByte('m')
		}
		b.WriteString(upperHalf)
	}
	b.WriteString("\x1b[m")
}

// code is a colour as the profile can show it: 0xRRGGBB, or a palette
// index.
func code(c rgb, profile colorprofile.Profile) int {
	switch profile {
	case colorprofile.ANSI:
		return int(index16(c))
	case colorprofile.ANSI256:
		return int(index256(c))
	}
	return int(c.r)<<16 | int(c.g)<<8 | int(c.b)
}

// appendColour appends the SGR parameters that set a foreground or
// background colour code.
func appendColour(p []byte, c int, fg bool, profile colorprofile.Profile) []byte {
	switch profile {
	case colorprofile.ANSI:
		base := 30
		if !fg {
			base = 40
		}
		if c >= 8 {
			base += 60 - 8
		}
		return strconv.AppendInt(p, int64(base+c), 10)
	case colorprofile.ANSI256:
		if fg {
			p = append(p, "38;5;"...)
		} else {
			p = append(p, "48;5;"...)
		}
		return strconv.AppendInt(p, int64(c), 10)
	}
	if fg {
		p = append(p, "38;2;"...)
	} else {
		p = append(p, "48;2;"...)
	}
	p = strconv.AppendInt(p, int64(c>>16), 10)
	p = append(p, ';')
	p = strconv.AppendInt(p, int64(c>>8&0xff), 10)
	p = append(p, ';')
	return strconv.AppendInt(p, int64(c&0xff), 10)
}

// writeShades writes one row of cells without colour. The ink of a cell
// follows the brightness of its two pixels (a missing lower one counts as
// background) on a dark background and their darkness on a light one, so
// the picture reads the same in both and its background stays blank.
func writeShades(b *strings.Builder, upper, lower []rgb, bg rgb) {
	dark := luma(bg) < 128
	for x, u := range upper {
		l := bg
		if lower != nil {
			l = lower[x]
		}
		y := (luma(u) + luma(l) + 1) / 2
		ink := y
		if !dark {
			ink = 255 - y
		}
		b.WriteString(shades[(ink*4+127)/255])
	}
}

// toRGB is c as an opaque colour; nil is black.
func toRGB(c color.Color) rgb {
	if c == nil {
		return rgb{}
	}
	r, g, b, _ := c.RGBA()
	return rgb{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}
