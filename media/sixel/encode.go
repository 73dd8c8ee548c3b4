package sixel

import (
	"fmt"
	"strconv"
	"strings"
)

// Encode returns the sixel sequence (DCS … ST) of the rows y0 to y1-1 of
// p (a picture scrolled partly out of view is drawn from the rows still
// shown). The image is drawn at the cursor with square pixels (the raster
// attributes say 1:1 and the size), its palette in RGB percentages, and
// pixels a band of six rows leaves over stay as they were (P2=1), so a
// picture whose height is not a multiple of six does not paint the row
// below it.
func (p *Paletted) Encode(y0, y1 int) (string, error) {
	y0, y1 = max(y0, 0), min(y1, p.H)
	if y0 >= y1 || p.W <= 0 {
		return "", fmt.Errorf("sixel: rows %d to %d of a %dx%d picture are empty", y0, y1, p.W, p.H)
	}
	var b strings.Builder
	b.Grow(p.W * (y1 - y0) / 3)
	b.WriteString("\x1bP0;1;0q\"1;1;")
	b.WriteString(strconv.Itoa(p.W))
	b.WriteByte(';')
	b.WriteString(strconv.Itoa(y1 - y0))
	// Only the entries the rows use are defined.
	var inUse [MaxColors]bool
	for _, c := range p.Pix[y0*p.W : y1*p.W] {
		inUse[c] = true
	}
	for i, c := range p.Palette {
		if !inUse[i] {
			continue
		}
		b.WriteByte('#')
		b.WriteString(strconv.Itoa(i))
		b.WriteString(";2;")
		b.WriteString(strconv.Itoa(percent(c.R)))
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(percent(c.G)))
		b.WriteByte(';')
		b.WriteString(strconv.Itoa(percent(c.B)))
	}
	// bits[c] holds colour c's six-pixel columns of the current band.
	var bits [MaxColors][]byte
	var present []int
	var seen [MaxColors]bool
	for top := y0; top < y1; top += 6 {
		present = present[:0]
		for dy := range min(6, y1-top) {
			row := p.Pix[(top+dy)*p.W : (top+dy+1)*p.W]
			for x, c := range row {
				if !seen[c] {
					seen[c] = true
					present = append(present, int(c))
					if bits[c] == nil {
						bits[c] = make([]byte, p.W)
					}
				}
				bits[c][x] |= 1 << dy
			}
		}
		for k, c := range present {
			if k > 0 {
				b.WriteByte('$')
			}
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(c))
			writeRuns(&b, bits[c])
			clear(bits[c])
			seen[c] = false
		}
		b.WriteByte('-')
	}
	b.WriteString("\x1b\\")
	return b.String(), nil
}

// writeRuns writes one colour's columns of a band, runs of four or more
// as "!n" and the trailing empty columns left out.
func writeRuns(b *strings.Builder, cols []byte) {
	end := len(cols)
	for end > 0 && cols[end-1] == 0 {
		end--
	}
	for x := 0; x < end; {
		v := cols[x]
		n := 1
		for x+n < end && cols[x+n] == v {
			n++
		}
		ch := byte(63 + v)
		if n >= 4 {
			b.WriteByte('!')
			b.WriteString(strconv.Itoa(n))
			b.WriteByte(ch)
		} else {
			for range n {
				b.WriteByte(ch)
			}
		}
		x += n
	}
}

// percent turns a channel value into the 0–100 a sixel palette takes.
func percent(v uint8) int { return (int(v)*100 + 127) / 255 }
