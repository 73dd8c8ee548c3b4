package demo

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"parley/api/fake"
)

// maxEditPixels bounds the pixels decoded or produced for one edit (the
// gateway already refuses inputs above maxEditSide and sizes above
// maxImageSide per side).
const maxEditPixels = maxEditSide * maxEditSide

// edit is demo-image's reply to an edit: the first input image tinted with a colour
// from the prompt (a colour word, else one drawn from the prompt), only
// where the mask is transparent when there is a mask, at the size asked
// (the input's by default). Each of the n images is tinted more strongly.
func edit(c fake.Call) fake.Reply {
	if c.Edit == nil || len(c.Edit.Images) == 0 {
		return badImage("The edit carries no image.")
	}
	if c.Width*c.Height > maxEditPixels {
		return badImage(fmt.Sprintf("The demo edits images of at most %d pixels; %dx%d is larger. Ask for a smaller size.", maxEditPixels, c.Width, c.Height))
	}
	src, err := decodeBounded(c.Edit.Images[0].Data)
	if err != nil {
		return badImage("The image could not be decoded: " + err.Error() + ".")
	}
	var mask image.Image
	if c.Edit.Mask != nil {
		if mask, err = decodeBounded(c.Edit.Mask.Data); err != nil {
			return badImage("The mask could not be decoded: " + err.Error() + ".")
		}
	}
	tint := tintColour(c.Prompt)
	var imgs [][]byte
	for i := range c.N {
		out := tinted(src, mask, tint, 0.35+0.15*float64(i), c.Width, c.Height)
		b, err := encodePNG(out)
		if err != nil {
			return serverError("The demo could not encode the edited image: " + err.Error())
		}
		imgs = append(imgs, b)
	}
	return fake.Reply{Images: imgs}
}

// decodeBounded decodes an image after checking from its header that it
// fits the pixel budget.
func decodeBounded(data []byte) (image.Image, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if cfg.Width*cfg.Height > maxEditPixels {
		return nil, fmt.Errorf("it has %dx%d pixels, more than the demo's %d", cfg.Width, cfg.Height, maxEditPixels)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	return img, err
}

// tintColour is the first colour the prompt names, else one drawn from it.
func tintColour(prompt string) color.NRGBA {
	if named := namedColours(prompt); len(named) > 0 {
		return named[0]
	}
	s := seed(prompt)
	return color.NRGBA{uint8(s), uint8(s >> 8), uint8(s >> 16), 255}
}

// tinted is src scaled (nearest neighbour) to w x h with each pixel moved
// by strength towards tint, where mask (scaled the same way) is
// transparent, or everywhere without a mask. Alpha is kept.
func tinted(src, mask image.Image, tint color.NRGBA, strength float64, w, h int) *image.NRGBA {
	in := image.NewNRGBA(src.Bounds())
	draw.Draw(in, in.Bounds(), src, src.Bounds().Min, draw.Src)
	var m *image.NRGBA
	if mask != nil {
		m = image.NewNRGBA(mask.Bounds())
		draw.Draw(m, m.Bounds(), mask, mask.Bounds().Min, draw.Src)
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	sw, sh := in.Rect.Dx(), in.Rect.Dy()
	for y := range h {
		sy := y * sh / h
		for x := range w {
			sx := x * sw / w
			p := in.NRGBAAt(in.Rect.Min.X+sx, in.Rect.Min.Y+sy)
			if m == nil || maskOpen(m, sx*m.Rect.Dx()/sw, sy*m.Rect.Dy()/sh) {
				a := p.A
				p = mix(p, tint, strength)
				p.A = a
			}
			out.SetNRGBA(x, y, p)
		}
	}
	return out
}

// maskOpen reports whether the mask lets the edit change (x, y): there it
// is transparent.
func maskOpen(m *image.NRGBA, x, y int) bool {
	return m.NRGBAAt(m.Rect.Min.X+x, m.Rect.Min.Y+y).A < 128
}

// badImage is a 400 about the uploaded image, in the OpenAI error shape.
func badImage(msg string) fake.Reply {
	return fake.Reply{Status: 400, ErrorMessage: msg, ErrorType: "invalid_request_error", ErrorCode: "invalid_image"}
}
