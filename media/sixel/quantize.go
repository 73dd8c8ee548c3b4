// Package sixel turns pictures into DEC sixel graphics, the image format
// of xterm (started as a VT340), foot, mlterm, WezTerm, Windows Terminal,
// VS Code's terminal, Konsole and iTerm2. A sixel image names its colours
// in a palette of at most a few hundred registers, so a picture is first
// reduced to a palette (Quantize: median cut over a 15-bit histogram,
// bounded in time by the histogram, not by the colours of the picture, and
// in memory by MaxPixels), then written a band of six rows at a time with
// run-length coding (Paletted.Encode). It imports only the standard
// library.
package sixel

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"slices"
)

// MaxPixels is the largest picture Quantize takes: far beyond a preview
// box (a 300×100-cell box at 20×40 pixels a cell is 24 million, refused),
// small enough that a mistaken size cannot take gigabytes.
const MaxPixels = 16 << 20

// MaxColors is the most palette entries a picture gets: 256 registers are
// what xterm, foot and mlterm give a sixel image (xterm's VT340 starts at
// 16 and is raised with XTSMGRAPHICS).
const MaxColors = 256

// Paletted is a picture reduced to a palette: one palette index a pixel,
// row by row.
type Paletted struct {
	W, H    int
	Pix     []uint8
	Palette []color.RGBA
}

// bins is the size of the histogram: 5 bits a channel.
const bins = 1 << 15

func binOf(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// Quantize reduces img to at most colors palette entries (1 to MaxColors),
// its transparent pixels laid over bg. A picture of no more distinct
// 15-bit colours than that keeps them (a screenshot of text usually does);
// others get a median cut of their histogram. There is no dithering: text
// in a screenshot stays crisp.
func Quantize(img *image.RGBA, bg color.RGBA, colors int) (*Paletted, error) {
	if img == nil {
		return nil, errors.New("sixel: no picture to quantize")
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("sixel: cannot quantize an empty %dx%d picture", w, h)
	}
	if int64(w)*int64(h) > MaxPixels {
		return nil, fmt.Errorf("sixel: a %dx%d picture is larger than the %d pixels a sixel image may take", w, h, MaxPixels)
	}
	colors = min(max(colors, 1), MaxColors)
	// The histogram: how many pixels fall in each bin, and their sums, so
	// a palette entry is the mean of what it stands for.
	count := make([]uint32, bins)
	sum := make([][3]uint64, bins)
	binIdx := make([]uint16, w*h)
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := range w {
			r, g, b := over(row[4*x:4*x+4], bg)
			i := binOf(r, g, b)
			binIdx[y*w+x] = uint16(i)
			count[i]++
			sum[i][0] += uint64(r)
			sum[i][1] += uint64(g)
			sum[i][2] += uint64(b)
		}
	}
	var used []int
	for i, c := range count {
		if c > 0 {
			used = append(used, i)
		}
	}
	var groups [][]int
	if len(used) <= colors {
		for _, i := range used {
			groups = append(groups, []int{i})
		}
	} else {
		groups = medianCut(used, count, colors)
	}
	p := &Paletted{W: w, H: h, Pix: make([]uint8, w*h), Palette: make([]color.RGBA, len(groups))}
	toEntry := make([]uint8, bins)
	for e, g := range groups {
		var n uint64
		var s [3]uint64
		for _, i := range g {
			n += uint64(count[i])
			s[0] += sum[i][0]
			s[1] += sum[i][1]
			s[2] += sum[i][2]
			toEntry[i] = uint8(e)
		}
		p.Palette[e] = color.RGBA{uint8(s[0] / n), uint8(s[1] / n), uint8(s[2] / n), 0xff}
	}
	for k, i := range binIdx {
		p.Pix[k] = toEntry[i]
	}
	return p, nil
}

// over lays one premultiplied RGBA pixel over bg.
func over(px []uint8, bg color.RGBA) (r, g, b uint8) {
	a := uint32(px[3])
	if a == 0xff {
		return px[0], px[1], px[2]
	}
	inv := 0xff - a
	return uint8(uint32(px[0]) + uint32(bg.R)*inv/0xff),
		uint8(uint32(px[1]) + uint32(bg.G)*inv/0xff),
		uint8(uint32(px[2]) + uint32(bg.B)*inv/0xff)
}

// medianCut splits the used bins into at most n groups: the group whose
// widest channel spans most is cut at the pixel-weighted median of that
// channel, until there are n groups or none can be cut. Its work is bounded
// by the histogram (at most 32,768 bins), whatever the picture's size.
func medianCut(used []int, count []uint32, n int) [][]int {
	type group struct {
		bins     []int
		ch, span int
	}
	mk := func(b []int) group {
		ch, span := widest(b)
		return group{b, ch, span}
	}
	groups := []group{mk(used)}
	for len(groups) < n {
		best := -1
		for gi, g := range groups {
			if len(g.bins) >= 2 && g.span > 0 && (best < 0 || g.span > groups[best].span) {
				best = gi
			}
		}
		if best < 0 {
			break
		}
		g := groups[best]
		shift := uint(10 - 5*g.ch)
		slices.SortFunc(g.bins, func(a, b int) int { return (a >> shift & 31) - (b >> shift & 31) })
		var total, acc uint64
		for _, i := range g.bins {
			total += uint64(count[i])
		}
		cut := 1
		for k, i := range g.bins[:len(g.bins)-1] {
			acc += uint64(count[i])
			cut = k + 1
			if acc*2 >= total {
				break
			}
		}
		groups[best] = mk(g.bins[:cut:cut])
		groups = append(groups, mk(g.bins[cut:]))
	}
	out := make([][]int, len(groups))
	for i, g := range groups {
		out[i] = g.bins
	}
	return out
}

// widest is the channel (0 red, 1 green, 2 blue) whose values spread most
// over the bins of g, and that spread.
func widest(g []int) (ch, span int) {
	lo := [3]int{31, 31, 31}
	hi := [3]int{}
	for _, i := range g {
		for c := range 3 {
			v := i >> uint(10-5*c) & 31
			lo[c] = min(lo[c], v)
			hi[c] = max(hi[c], v)
		}
	}
	for c := range 3 {
		if hi[c]-lo[c] > span {
			ch, span = c, hi[c]-lo[c]
		}
	}
	return ch, span
}
