package preview

import (
	"image"
	"runtime"
	"sync"

	"parley/media"
)

// Shrinking a 2048×1536 picture to 53×40 pixels with media.Scale alone
// filters every source row with a kernel about 150 pixels wide: some 60 ms
// of CPU here, more than decoding a JPEG of that size (BenchmarkPreview,
// catmull-rom-only). So a picture is first reduced by an integer factor,
// averaging each block of k×k pixels (a box filter, which reads every pixel
// once and is the right filter for large reductions), to no less than
// reduceGap times the target size, and then scaled the rest of the way with
// media's Catmull-Rom filter, which keeps the result sharp. Pillow's
// reducing_gap is the same idea; with a gap of 2 the result is within a
// level of Catmull-Rom all the way (TestScalePictureMatchesCatmullRom).
const reduceGap = 2

// scalePicture scales a decoded image to a premultiplied RGBA picture of
// exactly tw×th pixels: box reduction while that leaves at least reduceGap
// times the target, Catmull-Rom for the rest.
func scalePicture(img image.Image, tw, th int) *image.RGBA {
	b := img.Bounds()
	src := img
	kx, ky := max(1, b.Dx()/(tw*reduceGap)), max(1, b.Dy()/(th*reduceGap))
	if kx > 1 || ky > 1 {
		if r, ok := boxReduce(img, kx, ky); ok {
			src = r
		}
	}
	return media.Scale(src, tw, th)
}

// boxReduce averages blocks of kx×ky pixels of src into a premultiplied
// RGBA image of ⌈w/kx⌉×⌈h/ky⌉ (blocks at the right and bottom edges may be
// smaller). It reads the pixel types the decoders of PNG, JPEG, GIF and
// lossless WEBP return; for others (16-bit PNG, CMYK JPEG, lossy WEBP with
// alpha) ok is false and the caller scales src directly.
func boxReduce(src image.Image, kx, ky int) (*image.RGBA, bool) {
	b := src.Bounds()
	if b.Min != (image.Point{}) {
		return nil, false
	}
	var rows rowSummer
	straight := false
	switch s := src.(type) {
	case *image.RGBA:
		rows = func(acc []uint64, y int) { sumRGBA(acc, s.Pix[y*s.Stride:], b.Dx(), kx) }
	case *image.NRGBA:
		straight = true
		rows = func(acc []uint64, y int) { sumNRGBA(acc, s.Pix[y*s.Stride:], b.Dx(), kx) }
	case *image.Gray:
		rows = func(acc []uint64, y int) { sumGray(acc, s.Pix[y*s.Stride:y*s.Stride+b.Dx()], kx) }
	case *image.Paletted:
		var pal [256][4]uint64
		for i, c := range s.Palette {
			r, g, bl, a := c.RGBA()
			pal[i] = [4]uint64{uint64(r >> 8), uint64(g >> 8), uint64(bl >> 8), uint64(a >> 8)}
		}
		rows = func(acc []uint64, y int) { sumPaletted(acc, s.Pix[y*s.Stride:y*s.Stride+b.Dx()], kx, &pal) }
	case *image.YCbCr:
		return reduceYCbCr(s, kx, ky)
	default:
		return nil, false
	}
	return reduceRows(b.Dx(), b.Dy(), kx, ky, straight, rows), true
}

// rowSummer adds source row y into acc: four sums per destination column,
// red, green, blue and alpha. The colour sums are premultiplied, and for a
// straight-alpha source (straight) they hold colour×alpha, 255 times the
// premultiplied value.
type rowSummer func(acc []uint64, y int)

// reduceRows runs sum over every source row, destination rows split into
// bands over the CPUs; every band finishes before it returns.
func reduceRows(w, h, kx, ky int, straight bool, sum rowSummer) *image.RGBA {
	ow, oh := (w+kx-1)/kx, (h+ky-1)/ky
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	parallelRows(oh, func(y0, y1 int) {
		acc := make([]uint64, 4*ow)
		for oy := y0; oy < y1; oy++ {
			clear(acc)
			sy0, sy1 := oy*ky, min(oy*ky+ky, h)
			for sy := sy0; sy < sy1; sy++ {
				sum(acc, sy)
			}
			finish(dst.Pix[oy*dst.Stride:oy*dst.Stride+4*ow], acc, w, kx, sy1-sy0, straight)
		}
	})
	return dst
}

// parallelRows calls band for consecutive ranges of [0,n) on up to
// GOMAXPROCS goroutines and waits for all of them.
func parallelRows(n int, band func(y0, y1 int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/8))
	if workers == 1 {
		band(0, n)
		return
	}
	per := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for y0 := 0; y0 < n; y0 += per {
		wg.Add(1)
		go func(y0, y1 int) {
			defer wg.Done()
			band(y0, y1)
		}(y0, min(y0+per, n))
	}
	wg.Wait()
}

// finish writes the averages of one destination row, whose blocks are kx
// columns (fewer at the right edge) by rows rows.
func finish(out []uint8, acc []uint64, w, kx, rows int, straight bool) {
	for ox := range len(out) / 4 {
		n := uint64(min(kx, w-ox*kx) * rows)
		div := n
		if straight {
			div = 255 * n
		}
		a := uint8((acc[4*ox+3] + n/2) / n)
		out[4*ox+3] = a
		for c := range 3 {
			out[4*ox+c] = uint8(min((acc[4*ox+c]+div/2)/div, uint64(a)))
		}
	}
}

// sumRGBA adds a row of premultiplied RGBA pixels to acc.
func sumRGBA(acc []uint64, row []uint8, w, kx int) {
	for ox := 0; ox*kx < w; ox++ {
		seg := row[4*ox*kx : 4*min(ox*kx+kx, w)]
		var r, g, b, a uint64
		for i := 0; i < len(seg); i += 4 {
			r += uint64(seg[i])
			g += uint64(seg[i+1])
			b += uint64(seg[i+2])
			a += uint64(seg[i+3])
		}
		acc[4*ox] += r
		acc[4*ox+1] += g
		acc[4*ox+2] += b
		acc[4*ox+3] += a
	}
}

// sumNRGBA adds a row of straight-alpha RGBA pixels to acc, colour×alpha.
func sumNRGBA(acc []uint64, row []uint8, w, kx int) {
	for ox := 0; ox*kx < w; ox++ {
		seg := row[4*ox*kx : 4*min(ox*kx+kx, w)]
		var r, g, b, a uint64
		for i := 0; i < len(seg); i += 4 {
			al := uint64(seg[i+3])
			r += uint64(seg[i]) * al
			g += uint64(seg[i+1]) * al
			b += uint64(seg[i+2]) * al
			a += al
		}
		acc[4*ox] += r
		acc[4*ox+1] += g
		acc[4*ox+2] += b
		acc[4*ox+3] += a
	}
}

func sumGray(acc []uint64, row []uint8, kx int) {
	for ox := 0; ox*kx < len(row); ox++ {
		var v uint64
		for _, p := range row[ox*kx : min(ox*kx+kx, len(row))] {
			v += uint64(p)
		}
		n := uint64(min(kx, len(row)-ox*kx))
		acc[4*ox] += v
		acc[4*ox+1] += v
		acc[4*ox+2] += v
		acc[4*ox+3] += 255 * n
	}
}

func sumPaletted(acc []uint64, row []uint8, kx int, pal *[256][4]uint64) {
	for ox := 0; ox*kx < len(row); ox++ {
		var r, g, b, a uint64
		for _, p := range row[ox*kx : min(ox*kx+kx, len(row))] {
			c := &pal[p]
			r += c[0]
			g += c[1]
			b += c[2]
			a += c[3]
		}
		acc[4*ox] += r
		acc[4*ox+1] += g
		acc[4*ox+2] += b
		acc[4*ox+3] += a
	}
}
