package fake

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// The two benchmarks compare the hand-written gradient PNG with what
// image/png costs for the same picture (see renderGradient).

func BenchmarkRenderGradient1024(b *testing.B) {
	for b.Loop() {
		renderGradient(1024, 1024, 1)
	}
}

func BenchmarkImagePNGGradient1024(b *testing.B) {
	const w, h = 1024, 1024
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(x*255/(w-1)), byte(255-x*255/(w-1)), 67, 255
		}
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	for b.Loop() {
		var buf bytes.Buffer
		if err := enc.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
	}
}
