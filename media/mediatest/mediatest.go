// Package mediatest makes real encoded images for tests: photos and line
// art in every format parley reads, JPEGs with an EXIF orientation, and
// image bombs (PNGs whose pixels would take gigabytes) built without ever
// holding those pixels, plus a way to measure what a piece of code
// allocates.
package mediatest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// Photo is a "photo": smooth gradients plus sensor-like noise, which PNG
// compresses badly and JPEG well.
func Photo(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			n := r.IntN(24)
			img.Pix[y*img.Stride+4*x+0] = uint8(x*200/w + n)
			img.Pix[y*img.Stride+4*x+1] = uint8(y*200/h + n)
			img.Pix[y*img.Stride+4*x+2] = uint8((x+y)*100/(w+h) + n)
			img.Pix[y*img.Stride+4*x+3] = 255
		}
	}
	return img
}

// PhotoYCbCr is a large photo-like image made cheaply, as the JPEG decoder
// would return it (4:2:0 YCbCr): luma and red-difference gradients from left
// to right with noise. Rows are copied from a few precomputed noisy rows, so
// building 12 megapixels costs little even under -race.
func PhotoYCbCr(w, h int) *image.YCbCr {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	r := rand.New(rand.NewPCG(3, 4))
	noisy := func(n, from, to, noise int) [][]uint8 {
		rows := make([][]uint8, 16)
		for k := range rows {
			rows[k] = make([]uint8, n)
			for x := range n {
				rows[k][x] = uint8(from + x*(to-from)/n + r.IntN(noise))
			}
		}
		return rows
	}
	cw, ch := (w+1)/2, (h+1)/2
	ys, cbs, crs := noisy(w, 30, 200, 8), noisy(cw, 120, 128, 4), noisy(cw, 60, 200, 4)
	for y := range h {
		copy(img.Y[y*img.YStride:y*img.YStride+w], ys[(y*7)%16])
	}
	for y := range ch {
		copy(img.Cb[y*img.CStride:y*img.CStride+cw], cbs[(y*5)%16])
		copy(img.Cr[y*img.CStride:y*img.CStride+cw], crs[(y*3)%16])
	}
	return img
}

// LineArt is flat colour blocks and lines, which PNG compresses well.
func LineArt(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{250, 250, 250, 255}
			switch {
			case (x/40+y/40)%7 == 0:
				c = color.RGBA{20, 40, 200, 255}
			case y%50 < 3:
				c = color.RGBA{0, 0, 0, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// PNG encodes img as a PNG.
func PNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// JPEG encodes img as a baseline JPEG of quality q.
func JPEG(t testing.TB, img image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// GIF encodes a w×h GIF of frames frames (animated when frames > 1).
func GIF(t testing.TB, frames int, w, h int) []byte {
	t.Helper()
	pal := color.Palette{color.Black, color.White, color.RGBA{255, 0, 0, 255}}
	g := &gif.GIF{}
	for i := range frames {
		f := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for x := range w {
			f.SetColorIndex(x, x%h, uint8(1+i%2))
		}
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// SolidWEBP writes a lossless (VP8L) WEBP of one colour. Go has no WEBP
// encoder, but a VP8L image whose five prefix codes each hold a single
// symbol needs zero bits per pixel, so the whole bitstream is a few bytes
// (and a 16383x16383 one is as small).
func SolidWEBP(w, h int, c color.NRGBA) []byte {
	var bits []bool
	put := func(v uint32, n int) {
		for i := range n {
			bits = append(bits, v>>i&1 == 1)
		}
	}
	put(0x2f, 8)                                         // signature
	put(uint32(w-1), 14)                                 // width - 1
	put(uint32(h-1), 14)                                 // height - 1
	put(b2u(c.A != 255), 1)                              // alpha is used
	put(0, 3)                                            // version
	put(0, 1)                                            // no transform
	put(0, 1)                                            // no colour cache
	put(0, 1)                                            // no meta prefix codes
	for _, sym := range []uint8{c.G, c.R, c.B, c.A, 0} { // green, red, blue, alpha, distance
		put(1, 1) // simple code
		put(0, 1) // one symbol
		put(1, 1) // 8-bit symbol
		put(uint32(sym), 8)
	}
	data := make([]byte, (len(bits)+7)/8)
	for i, b := range bits {
		if b {
			data[i/8] |= 1 << (i % 8)
		}
	}
	if len(data)%2 == 1 {
		data = append(data, 0)
	}
	var out bytes.Buffer
	out.WriteString("RIFF")
	binary.Write(&out, binary.LittleEndian, uint32(4+8+len(data)))
	out.WriteString("WEBPVP8L")
	binary.Write(&out, binary.LittleEndian, uint32(len(data)))
	out.Write(data)
	return out.Bytes()
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// WithEXIFOrientation inserts an APP1 EXIF segment with the orientation tag
// right after the SOI marker of a JPEG.
func WithEXIFOrientation(jpg []byte, o uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("MM")
	binary.Write(&tiff, binary.BigEndian, uint16(42))
	binary.Write(&tiff, binary.BigEndian, uint32(8)) // IFD0 offset
	binary.Write(&tiff, binary.BigEndian, uint16(1)) // one entry
	binary.Write(&tiff, binary.BigEndian, uint16(0x0112))
	binary.Write(&tiff, binary.BigEndian, uint16(3)) // SHORT
	binary.Write(&tiff, binary.BigEndian, uint32(1))
	binary.Write(&tiff, binary.BigEndian, o)
	binary.Write(&tiff, binary.BigEndian, uint16(0))
	binary.Write(&tiff, binary.BigEndian, uint32(0)) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	var out bytes.Buffer
	out.Write(jpg[:2])
	out.Write([]byte{0xFF, 0xE1})
	binary.Write(&out, binary.BigEndian, uint16(len(seg)+2))
	out.Write(seg)
	out.Write(jpg[2:])
	return out.Bytes()
}

// Screenshot looks like a desktop screenshot to an encoder: a light window
// with lines of text (glyphs from a fixed set of 96 random 7x12 bitmaps with
// two shades of anti-aliasing), a title bar, and a photo in one quarter. A
// 4000x3000 one is a few megabytes as PNG, as real ones are.
func Screenshot(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(5, 6))
	var glyphs [96][12][7]uint8
	for g := range glyphs {
		for y := range 12 {
			for x := range 7 {
				switch v := r.IntN(10); {
				case v < 2:
					glyphs[g][y][x] = 40 // ink
				case v < 4:
					glyphs[g][y][x] = 150 // anti-aliased edge
				}
			}
		}
	}
	photo := Photo(w/2, h/2)
	for y := range h {
		row := img.Pix[y*img.Stride:]
		for x := range w {
			v := uint8(246)
			switch {
			case y < 40:
				v = 210 // title bar
			case x >= w/2 && y >= h/2:
				copy(row[4*x:4*x+4], photo.Pix[(y-h/2)*photo.Stride+4*(x-w/2):])
				continue
			default:
				line, col := (y-40)/18, x/9
				gy, gx := (y-40)%18-3, x%9-1
				word := (col+line*7)%11 < 8 // spaces between words
				if line%12 != 11 && word && gy >= 0 && gy < 12 && gx >= 0 && gx < 7 {
					if ink := glyphs[(col*31+line*17)%96][gy][gx]; ink != 0 {
						v = ink
					}
				}
			}
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = v, v, v+4, 255
		}
	}
	return img
}
