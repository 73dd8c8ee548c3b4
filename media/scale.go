package media

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"runtime"
	"sync"
)

// A parallel, fixed-point Catmull-Rom resampler.
//
// golang.org/x/image/draw's CatmullRom computes the same filter (and the tests
// compare the two pixel by pixel), but it runs on one core in float64, calls
// the YCbCr conversion once per filter tap, and allocates a [4]float64 for
// every pixel of its intermediate image: about 1.4 s and 200 MB to shrink a
// 12-megapixel photo. This one converts each source row once, works in
// fixed point, keeps only a few horizontally filtered rows per worker (four
// 16-bit channels packed in a uint64), and splits the output rows over the
// CPUs (see BenchmarkScale).

// weightBits is the fixed-point precision of the filter weights.
const weightBits = 14

// taps holds, for every destination column (or row), the source indexes and
// weights that make it; the weights of one destination sum to 1<<weightBits.
type taps struct {
	start []int32 // taps of destination d are idx[start[d]:start[d+1]]
	idx   []int32
	w     []int32
}

func catmullRom(t float64) float64 {
	if t < 1 {
		return (1.5*t-2.5)*t*t + 1
	}
	return ((-0.5*t+2.5)*t-4)*t + 2
}

// newTaps distributes sw source pixels over dw destination pixels exactly as
// x/image/draw's newDistrib does: the kernel is widened by the scale factor
// when shrinking, taps outside the source are dropped, and the rest are
// normalised.
func newTaps(dw, sw int) taps {
	scale := float64(sw) / float64(dw)
	half, argScale := 2.0, 1.0
	if scale > 1 {
		half *= scale
		argScale = 1 / scale
	}
	t := taps{start: make([]int32, dw+1)}
	var fw []float64
	for d := range dw {
		center := (float64(d)+0.5)*scale - 0.5
		lo := max(int(math.Floor(center-half)), 0)
		hi := min(int(math.Ceil(center+half)), sw)
		first := len(t.idx)
		fw = fw[:0]
		total := 0.0
		for s := lo; s < hi; s++ {
			a := math.Abs((center - float64(s)) * argScale)
			if a >= 2 {
				continue
			}
			wt := catmullRom(a)
			if wt == 0 {
				continue
			}
			total += wt
			fw = append(fw, wt)
			t.idx = append(t.idx, int32(s))
		}
		// Round to fixed point and put the rounding error on the largest
		// weight, so a flat area stays exactly flat.
		var sum int32
		big := first
		for k, wt := range fw {
			q := int32(math.Round(wt / total * (1 << weightBits)))
			t.w = append(t.w, q)
			sum += q
			if q > t.w[big] {
				big = first + k
			}
		}
		if len(fw) > 0 {
			t.w[big] += 1<<weightBits - sum
		}
		t.start[d+1] = int32(len(t.idx))
	}
	return t
}

// rowFunc writes source row y (0-based within the bounds) as premultiplied
// RGBA bytes into buf, which holds width*4 bytes.
type rowFunc func(y int, buf []uint8)

func rowReader(src image.Image) rowFunc {
	b := src.Bounds()
	w := b.Dx()
	switch s := src.(type) {
	case *image.RGBA:
		return func(y int, buf []uint8) {
			i := s.PixOffset(b.Min.X, b.Min.Y+y)
			copy(buf, s.Pix[i:i+4*w])
		}
	case *image.NRGBA:
		return nrgbaRows(s, b.Min, w)
	case *image.YCbCr:
		return func(y int, buf []uint8) { ycbcrRow(buf, s, b.Min.X, b.Min.Y+y, w) }
	case *image.Gray:
		return func(y int, buf []uint8) {
			i := s.PixOffset(b.Min.X, b.Min.Y+y)
			for x, v := range s.Pix[i : i+w] {
				buf[4*x], buf[4*x+1], buf[4*x+2], buf[4*x+3] = v, v, v, 255
			}
		}
	case *image.RGBA64:
		return rgba64Rows(s, b.Min, w)
	case *image.NRGBA64:
		return nrgba64Rows(s, b.Min, w)
	case *image.Gray16:
		return gray16Rows(s, b.Min, w)
	case *image.Paletted:
		return palettedRows(s, b.Min, w)
	}
	return func(y int, buf []uint8) {
		for x := range w {
			r, g, bl, a := src.At(b.Min.X+x, b.Min.Y+y).RGBA()
			buf[4*x], buf[4*x+1], buf[4*x+2], buf[4*x+3] = uint8(r>>8), uint8(g>>8), uint8(bl>>8), uint8(a>>8)
		}
	}
}

// nrgbaRows reads rows of straight alpha, premultiplied as RGBA is.
func nrgbaRows(s *image.NRGBA, at image.Point, w int) rowFunc {
	return func(y int, buf []uint8) {
		i := s.PixOffset(at.X, at.Y+y)
		row := s.Pix[i : i+4*w]
		for x := 0; x < len(row); x += 4 {
			a := uint32(row[x+3])
			buf[x+0] = uint8((uint32(row[x+0])*a + 127) / 255)
			buf[x+1] = uint8((uint32(row[x+1])*a + 127) / 255)
			buf[x+2] = uint8((uint32(row[x+2])*a + 127) / 255)
			buf[x+3] = uint8(a)
		}
	}
}

// rgba64Rows reads rows of 16-bit channels, keeping the high byte of each.
func rgba64Rows(s *image.RGBA64, at image.Point, w int) rowFunc {
	return func(y int, buf []uint8) {
		i := s.PixOffset(at.X, at.Y+y)
		row := s.Pix[i : i+8*w]
		for x := range w { // the high byte of each big-endian 16-bit channel
			buf[4*x], buf[4*x+1], buf[4*x+2], buf[4*x+3] = row[8*x], row[8*x+2], row[8*x+4], row[8*x+6]
		}
	}
}

// nrgba64Rows reads rows of 16-bit straight alpha, premultiplied.
func nrgba64Rows(s *image.NRGBA64, at image.Point, w int) rowFunc {
	return func(y int, buf []uint8) {
		i := s.PixOffset(at.X, at.Y+y)
		row := s.Pix[i : i+8*w]
		for x := range w {
			r, g, bl, a := c16(row[8*x:]), c16(row[8*x+2:]), c16(row[8*x+4:]), c16(row[8*x+6:])
			// Premultiply at 16 bits, then keep the high byte, as
			// color.NRGBA64.RGBA does before the >>8 the generic path applies.
			buf[4*x] = uint8(r * a / 0xffff >> 8)
			buf[4*x+1] = uint8(g * a / 0xffff >> 8)
			buf[4*x+2] = uint8(bl * a / 0xffff >> 8)
			buf[4*x+3] = uint8(a >> 8)
		}
	}
}

// gray16Rows reads rows of 16-bit grey, keeping the high byte.
func gray16Rows(s *image.Gray16, at image.Point, w int) rowFunc {
	return func(y int, buf []uint8) {
		i := s.PixOffset(at.X, at.Y+y)
		row := s.Pix[i : i+2*w]
		for x := range w {
			v := row[2*x]
			buf[4*x], buf[4*x+1], buf[4*x+2], buf[4*x+3] = v, v, v, 255
		}
	}
}

// palettedRows reads rows of palette indexes through the palette, each
// colour converted once.
func palettedRows(s *image.Paletted, at image.Point, w int) rowFunc {
	pal := make([][4]uint8, 256)
	for i, c := range s.Palette {
		r, g, bl, a := c.RGBA()
		pal[i] = [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}
	}
	return func(y int, buf []uint8) {
		i := s.PixOffset(at.X, at.Y+y)
		for x, v := range s.Pix[i : i+w] {
			copy(buf[4*x:4*x+4], pal[v][:])
		}
	}
}

// c16 reads a big-endian 16-bit channel.
func c16(b []uint8) uint32 { return uint32(b[0])<<8 | uint32(b[1]) }

// ycbcrRow converts w pixels of row sy, from column x0, to RGBA. Like the
// kernels below it only reads the shared image and writes the worker's own
// buffer, and is left out of race instrumentation for the same reason.
//
//go:norace
func ycbcrRow(buf []uint8, s *image.YCbCr, x0, sy, w int) {
	for x := range w {
		sx := x0 + x
		yi, ci := s.YOffset(sx, sy), s.COffset(sx, sy)
		r, g, b := color.YCbCrToRGB(s.Y[yi], s.Cb[ci], s.Cr[ci])
		buf[4*x], buf[4*x+1], buf[4*x+2], buf[4*x+3] = r, g, b, 255
	}
}

// Scale resamples src to w×h with the Catmull-Rom (bicubic) kernel, the
// filter golang.org/x/image/draw calls CatmullRom, into a new RGBA image
// with premultiplied alpha. It uses up to GOMAXPROCS goroutines, which all
// finish before it returns.
func Scale(src image.Image, w, h int) *image.RGBA {
	sb := src.Bounds()
	sw, sh := sb.Dx(), sb.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if w <= 0 || h <= 0 || sw <= 0 || sh <= 0 {
		return dst
	}
	xt, yt := newTaps(w, sw), newTaps(h, sh)
	read := rowReader(src)

	// span is the most consecutive source rows one destination row reads;
	// a ring of that many horizontally scaled rows serves every window.
	span := 1
	for d := range h {
		if a, b := yt.start[d], yt.start[d+1]; b > a {
			span = max(span, int(yt.idx[b-1]-yt.idx[a])+1)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, h/32))
	band := (h + workers - 1) / workers
	var wg sync.WaitGroup
	for y0 := 0; y0 < h; y0 += band {
		wg.Add(1)
		go func(y0, y1 int) {
			defer wg.Done()
			resampleBand(dst, y0, y1, sw, xt, yt, span, read)
		}(y0, min(y0+band, h))
	}
	wg.Wait()
	return dst
}

// Intermediate pixels (one source row scaled horizontally) are packed four
// channels to a uint64, 16 bits each: the value with interBits fractional
// bits plus interBias, which keeps the filter's overshoot (negative lobes)
// non-negative. One load per tap keeps the vertical pass cheap.
const (
	interBits = 6
	interBias = 64 << interBits
)

// resampleBand fills destination rows [y0,y1).
func resampleBand(dst *image.RGBA, y0, y1, sw int, xt, yt taps, span int, read rowFunc) {
	w := dst.Rect.Dx()
	line := make([]uint8, 4*sw)
	ring := make([][]uint64, span)
	ringRow := make([]int, span)
	for i := range ring {
		ring[i] = make([]uint64, w)
		ringRow[i] = -1
	}
	// scaled returns source row sy scaled horizontally.
	scaled := func(sy int) []uint64 {
		slot := sy % span
		if ringRow[slot] != sy {
			read(sy, line)
			scaleRow(ring[slot], line, &xt)
			ringRow[slot] = sy
		}
		return ring[slot]
	}
	rows := make([][]uint64, 0, span)
	wts := make([]int64, 0, span)
	for y := y0; y < y1; y++ {
		rows, wts = rows[:0], wts[:0]
		for k := yt.start[y]; k < yt.start[y+1]; k++ {
			rows = append(rows, scaled(int(yt.idx[k])))
			wts = append(wts, int64(yt.w[k]))
		}
		blendRows(dst.Pix[y*dst.Stride:y*dst.Stride+4*w], rows, wts)
	}
}

// The two kernels below are left out of race-detector instrumentation
// (go:norace): they do nothing but arithmetic on slices that are either
// read-only and shared (taps, source rows) or owned by the calling worker
// (its ring rows, its band of dst), as Scale's banding guarantees. The
// goroutine structure around them stays instrumented. Instrumented, they
// made `go test -race` of one 12-megapixel attachment take ten times longer.

// scaleRow filters one source row (premultiplied RGBA bytes) horizontally
// into packed intermediate pixels.
//
//go:norace
func scaleRow(out []uint64, line []uint8, xt *taps) {
	for d := range out {
		var r, g, b, a int32
		lo, hi := xt.start[d], xt.start[d+1]
		for k, si := range xt.idx[lo:hi] {
			px := binary.LittleEndian.Uint32(line[4*si:])
			wt := xt.w[int(lo)+k]
			r += int32(px&0xff) * wt
			g += int32(px>>8&0xff) * wt
			b += int32(px>>16&0xff) * wt
			a += int32(px>>24) * wt
		}
		const sh = weightBits - interBits
		out[d] = pack16(r, sh) | pack16(g, sh)<<16 | pack16(b, sh)<<32 | pack16(a, sh)<<48
	}
}

// blendRows filters horizontally scaled rows vertically into one RGBA row.
//
//go:norace
func blendRows(out []uint8, rows [][]uint64, wts []int64) {
	const shift = weightBits + interBits
	const bias = int64(interBias)<<weightBits - 1<<(shift-1) // remove the bias, round to nearest
	for d := range len(out) / 4 {
		var r, g, b, a int64
		for k, row := range rows {
			v, wt := row[d], wts[k]
			r += int64(v&0xffff) * wt
			g += int64(v>>16&0xffff) * wt
			b += int64(v>>32&0xffff) * wt
			a += int64(v>>48) * wt
		}
		av := clamp8((a - bias) >> shift)
		binary.LittleEndian.PutUint32(out[4*d:], uint32(min(clamp8((r-bias)>>shift), av))|
			uint32(min(clamp8((g-bias)>>shift), av))<<8|
			uint32(min(clamp8((b-bias)>>shift), av))<<16|
			uint32(av)<<24)
	}
}

// pack16 turns a horizontal sum (weightBits fractional bits) into a biased
// 16-bit lane with interBits fractional bits.
func pack16(v int32, shift int) uint64 {
	u := (v+1<<(shift-1))>>shift + interBias
	return uint64(min(max(u, 0), 0xffff))
}

func clamp8(v int64) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

// FitWithin scales w×h so its longer side is at most maxSide, keeping the
// aspect ratio (rounded, never below 1 px).
func FitWithin(w, h, maxSide int) (int, int) {
	long := max(w, h)
	if long <= maxSide {
		return w, h
	}
	s := float64(maxSide) / float64(long)
	nw := max(1, int(math.Round(float64(w)*s)))
	nh := max(1, int(math.Round(float64(h)*s)))
	if w >= h {
		nw = maxSide
	} else {
		nh = maxSide
	}
	return nw, nh
}
