package preview

import (
	"image"
	"image/color"
)

// reduceYCbCr box-reduces a JPEG's planes directly: the luma and the two
// (subsampled) chroma planes are averaged separately and each block is
// converted to RGB once. Converting YCbCr to RGB is linear up to clamping,
// so this equals averaging the converted pixels, at a fraction of the cost
// of converting three million of them.
func reduceYCbCr(s *image.YCbCr, kx, ky int) (*image.RGBA, bool) {
	hs, vs, ok := chromaStep(s.SubsampleRatio)
	if !ok {
		return nil, false
	}
	w, h := s.Rect.Dx(), s.Rect.Dy()
	cw, ch := (w+hs-1)/hs, (h+vs-1)/vs
	ow, oh := (w+kx-1)/kx, (h+ky-1)/ky
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	parallelRows(oh, func(y0, y1 int) {
		ys := make([]uint64, ow)
		cbs := make([]uint64, ow)
		crs := make([]uint64, ow)
		for oy := y0; oy < y1; oy++ {
			clear(ys)
			clear(cbs)
			clear(crs)
			sy0, sy1 := oy*ky, min(oy*ky+ky, h)
			for sy := sy0; sy < sy1; sy++ {
				sumPlane(ys, s.Y[sy*s.YStride:sy*s.YStride+w], kx)
			}
			// The chroma samples under the block: its edges divided by the
			// subsampling, rounded outwards.
			cy0, cy1 := sy0/vs, min((sy1+vs-1)/vs, ch)
			out := dst.Pix[oy*dst.Stride:]
			for ox := range ow {
				x0, x1 := ox*kx, min(ox*kx+kx, w)
				cx0, cx1 := x0/hs, min((x1+hs-1)/hs, cw)
				var cb, cr uint64
				for cy := cy0; cy < cy1; cy++ {
					row := cy * s.CStride
					for _, v := range s.Cb[row+cx0 : row+cx1] {
						cb += uint64(v)
					}
					for _, v := range s.Cr[row+cx0 : row+cx1] {
						cr += uint64(v)
					}
				}
				n := uint64((x1 - x0) * (sy1 - sy0))
				cn := uint64((cx1 - cx0) * (cy1 - cy0))
				r, g, b := color.YCbCrToRGB(uint8((ys[ox]+n/2)/n), uint8((cb+cn/2)/cn), uint8((cr+cn/2)/cn))
				out[4*ox], out[4*ox+1], out[4*ox+2], out[4*ox+3] = r, g, b, 255
			}
		}
	})
	return dst, true
}

// chromaStep is how many pixels one chroma sample spans across and down.
func chromaStep(r image.YCbCrSubsampleRatio) (hs, vs int, ok bool) {
	switch r {
	case image.YCbCrSubsampleRatio444:
		return 1, 1, true
	case image.YCbCrSubsampleRatio422:
		return 2, 1, true
	case image.YCbCrSubsampleRatio420:
		return 2, 2, true
	case image.YCbCrSubsampleRatio440:
		return 1, 2, true
	case image.YCbCrSubsampleRatio411:
		return 4, 1, true
	case image.YCbCrSubsampleRatio410:
		return 4, 2, true
	}
	return 0, 0, false
}

// sumPlane adds one row of an 8-bit plane to the per-block sums.
func sumPlane(acc []uint64, row []uint8, kx int) {
	for ox := range acc {
		var v uint64
		for _, p := range row[ox*kx : min(ox*kx+kx, len(row))] {
			v += uint64(p)
		}
		acc[ox] += v
	}
}
