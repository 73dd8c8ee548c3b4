package media

import (
	"context"
	"errors"
	"fmt"
)

// CheckMask checks an edit mask before it is uploaded: it must be a PNG with
// the same dimensions as the (first) image, it must have an alpha channel
// (colour type with alpha, or a tRNS chunk), and at least one pixel must be
// transparent, since transparent areas mark what the model may change. The
// mask is decoded under DecodeBudget to look for that pixel.
func CheckMask(img, mask []byte) error {
	if Sniff(mask) != PNG {
		what := DescribeContent(mask)
		if what == "" {
			what = "not an image"
		}
		return fmt.Errorf("the mask must be a PNG with transparency, but it is %s; export it as PNG with an alpha channel", what)
	}
	mi, err := Inspect(mask)
	if err != nil {
		return fmt.Errorf("the mask PNG cannot be read (%w); the file may be damaged", err)
	}
	ii, err := Inspect(img)
	switch {
	case errors.Is(err, ErrNotImage):
		return errors.New("the image to edit is not a PNG, JPEG, WEBP or GIF image")
	case err != nil:
		return fmt.Errorf("the image to edit cannot be read (%w); the file may be damaged", err)
	}
	if mi.Width != ii.Width || mi.Height != ii.Height {
		return fmt.Errorf("the mask is %dx%d but the image is %dx%d; make the mask the same size as the image",
			mi.Width, mi.Height, ii.Width, ii.Height)
	}
	if !pngHasAlpha(mask) {
		return errors.New("the mask has no alpha channel; make the areas to edit transparent and save it as a PNG with transparency")
	}
	// Run before any request is sent, on a PNG (no scans to bomb with)
	// whose header was checked: its own budget, no context.
	m, _, release, err := Decode(context.Background(), mask, nil)
	defer release()
	var be *BudgetError
	switch {
	case errors.As(err, &be):
		return fmt.Errorf("the mask is %s; make it smaller", be.Detail())
	case err != nil:
		return fmt.Errorf("the mask PNG cannot be decoded (%w); the file may be damaged", err)
	}
	if IsOpaque(m) {
		return errors.New("the mask is fully opaque, so nothing would be edited; make the areas to edit transparent")
	}
	return nil
}

// pngHasAlpha reports whether a PNG stores transparency: a colour type with
// an alpha channel (4 grey+alpha, 6 RGBA) or a tRNS chunk before the image
// data.
func pngHasAlpha(data []byte) bool {
	const ihdrColorType = 8 + 8 + 9 // signature, chunk length+type, width..bit depth
	if len(data) <= ihdrColorType {
		return false
	}
	if ct := data[ihdrColorType]; ct == 4 || ct == 6 {
		return true
	}
	return pngHasChunkBeforeIDAT(data, "tRNS")
}
