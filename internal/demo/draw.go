package demo

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"

	"parley/api/fake"
)

// generate is demo-image's reply: n PNGs of w x h pixels drawn from the
// prompt, so the same prompt gives the same pictures and another prompt
// (or another index) gives others. The gateway has already refused sizes
// above maxImageSide and n above maxImages.
func generate(prompt string, n, w, h int) fake.Reply {
	var imgs [][]byte
	for i := range n {
		b, err := encodePNG(picture(prompt, i, w, h))
		if err != nil {
			return serverError("The demo could not encode the image it drew: " + err.Error())
		}
		imgs = append(imgs, b)
	}
	return fake.Reply{Images: imgs}
}

// picture paints a sky-to-ground gradient, a sun and a few hills and blocks,
// with colours and places chosen by the prompt and the index. Colour words
// in the prompt ("red", "blue", …) choose the palette.
func picture(prompt string, index, w, h int) *image.NRGBA {
	rng := rand.New(rand.NewPCG(seed(prompt), uint64(index)))
	pal := palette(prompt, rng)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))

	top, bottom := pal[0], pal[1]
	for y := range h {
		c := mix(top, bottom, float64(y)/float64(max(h-1, 1)))
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := range w {
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, 255
		}
	}
	side := float64(min(w, h))
	// The sun.
	disc(img, rng.Float64()*float64(w), rng.Float64()*float64(h)/2, side*(0.08+rng.Float64()*0.1), pal[2])
	// Hills: large discs centred below the picture.
	for k := range 3 {
		r := side * (0.35 + rng.Float64()*0.3)
		disc(img, rng.Float64()*float64(w), float64(h)+r*0.55-float64(k)*side*0.05, r, shade(pal[3+k%2], 1-0.15*float64(k)))
	}
	// Blocks: buildings or boxes.
	for range 2 + rng.IntN(4) {
		bw := int(side * (0.05 + rng.Float64()*0.12))
		bh := int(side * (0.1 + rng.Float64()*0.3))
		x0 := rng.IntN(max(w-bw, 1))
		rect(img, x0, h-bh, x0+bw, h, shade(pal[5], 0.6+rng.Float64()*0.4))
	}
	return img
}

// seed hashes the prompt, case and spacing ignored, so "A red kite" and
// "a  red kite" draw the same picture.
func seed(prompt string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(strings.Join(strings.Fields(prompt), " "))))
	return h.Sum64()
}

// palette is six colours: sky top, sky bottom, sun, two hills, blocks.
// Colour words of the prompt come first; random colours fill the rest.
func palette(prompt string, rng *rand.Rand) [6]color.NRGBA {
	var pal [6]color.NRGBA
	for i := range pal {
		pal[i] = color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
	}
	// The named colours go to sky, sun and hills first, so each shows.
	order := [len(pal)]int{0, 2, 3, 1, 4, 5}
	for i, c := range namedColours(prompt) {
		if i >= len(order) {
			break
		}
		pal[order[i]] = c
	}
	return pal
}

// namedColours returns the colours the prompt names, in order.
func namedColours(prompt string) []color.NRGBA {
	known := map[string]color.NRGBA{
		"red": {220, 40, 40, 255}, "orange": {245, 140, 30, 255}, "yellow": {245, 220, 50, 255},
		"green": {50, 170, 70, 255}, "blue": {40, 90, 220, 255}, "purple": {140, 60, 190, 255},
		"pink": {240, 130, 180, 255}, "brown": {130, 80, 40, 255}, "black": {20, 20, 20, 255},
		"white": {245, 245, 245, 255}, "grey": {128, 128, 128, 255}, "gray": {128, 128, 128, 255},
		"gold": {212, 175, 55, 255}, "teal": {0, 128, 128, 255},
	}
	var out []color.NRGBA
	for _, w := range strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if c, ok := known[w]; ok {
			out = append(out, c)
		}
	}
	return out
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 255}
}

func shade(c color.NRGBA, f float64) color.NRGBA {
	s := func(x uint8) uint8 { return uint8(min(255, float64(x)*f)) }
	return color.NRGBA{s(c.R), s(c.G), s(c.B), c.A}
}

// disc fills the part of a circle inside the image.
func disc(img *image.NRGBA, cx, cy, r float64, c color.NRGBA) {
	b := img.Bounds()
	y0, y1 := max(int(cy-r), b.Min.Y), min(int(cy+r)+1, b.Max.Y)
	for y := y0; y < y1; y++ {
		dy := float64(y) + 0.5 - cy
		for x := max(int(cx-r), b.Min.X); x < min(int(cx+r)+1, b.Max.X); x++ {
			dx := float64(x) + 0.5 - cx
			if dx*dx+dy*dy <= r*r {
				img.SetNRGBA(x, y, c)
			}
		}
	}
}

// rect fills [x0,x1) x [y0,y1), clipped to the image.
func rect(img *image.NRGBA, x0, y0, x1, y1 int, c color.NRGBA) {
	r := image.Rect(x0, y0, x1, y1).Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
}

// encodePNG encodes fast: the demo's pictures are flat colours, which
// compress well at any level.
func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// serverError is a 500 in the OpenAI error shape.
func serverError(msg string) fake.Reply {
	return fake.Reply{Status: 500, ErrorMessage: msg, ErrorType: "server_error"}
}
