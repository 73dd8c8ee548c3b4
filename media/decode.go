package media

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"

	"parley/internal/bytesize"
)

// DecodeBudget is the most memory parley lets one image's decoding take,
// counted as Info.Decoded (decoded bytes, not pixels): 256 MB holds about 64
// megapixels of 8-bit RGBA, 32 of 16-bit PNG, or a baseline 108-megapixel
// 4:2:0 JPEG from a phone, while a header that claims more is refused before
// any pixel is allocated. Images from the gateway and attachments that have
// to be scaled are held to it.
const DecodeBudget int64 = 256_000_000

// BudgetError says that an image would take more memory to decode than the
// budget allows. Callers put it into their own sentence with Detail.
type BudgetError struct {
	Width, Height int
	Decoded       int64 // Info.Decoded
	Budget        int64
}

// Detail is the refusal without a subject: "100000x100000 pixels (40.0 GB
// decoded), more than parley decodes (256.0 MB)".
func (e *BudgetError) Detail() string {
	return fmt.Sprintf("%dx%d pixels (%s decoded), more than parley decodes (%s)",
		e.Width, e.Height, bytesize.Format(e.Decoded), bytesize.Format(e.Budget))
}

func (e *BudgetError) Error() string { return "the image is " + e.Detail() }

// Check returns a *BudgetError when decoding the image would take more than
// budget bytes.
func (i Info) Check(budget int64) error {
	if i.Decoded > budget {
		return &BudgetError{Width: i.Width, Height: i.Height, Decoded: i.Decoded, Budget: budget}
	}
	return nil
}

// Decode decodes the pixels of an image (the first frame of a GIF) after
// checking its header against budget: a header that claims more than the
// budget fails with *BudgetError before anything is allocated. Other
// failures are ErrNotImage, a header error from Inspect, or the decoder's
// error for damaged or cut-off data.
func Decode(data []byte, budget int64) (image.Image, Info, error) {
	info, err := Inspect(data)
	if err != nil {
		return nil, info, err
	}
	if err := info.Check(budget); err != nil {
		return nil, info, err
	}
	img, err := decodePixels(info.Format, data)
	if err != nil {
		return nil, info, err
	}
	// The decoders read the same header Inspect did; a disagreement would
	// mean the budget was checked against the wrong size.
	if b := img.Bounds(); b.Dx() != info.Width || b.Dy() != info.Height {
		return nil, info, fmt.Errorf("the %s image decodes to %dx%d but its header says %dx%d", info.Format.Name(), b.Dx(), b.Dy(), info.Width, info.Height)
	}
	return img, info, nil
}

func decodePixels(f Format, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch f {
	case PNG:
		return png.Decode(r)
	case JPEG:
		return jpeg.Decode(r)
	case GIF:
		return gif.Decode(r)
	case WEBP:
		return webp.Decode(r)
	}
	return nil, ErrNotImage
}
