package mcptest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// RedDotPNG is a real 4x4 red PNG.
func RedDotPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			img.Set(x, y, color.RGBA{R: 255, A: 255})
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}
