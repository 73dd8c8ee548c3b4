package media

import (
	"context"
	"errors"
	"fmt"
	"image"
)

// Verified is image bytes that decoded whole within the budget, with what
// their header said. Verify makes them, and SaveImages trusts them instead
// of decoding every image a second time.
type Verified struct {
	Data []byte
	Info Info
}

// Verify checks that data is a whole image of a known format by decoding
// every pixel within b (see Decode), since a header check alone passes a
// cut-off file. seen, when not nil, gets the pixels while they are held
// (to keep a preview of them, so nothing decodes the image again); they
// are let go when it returns. Its errors complete a sentence about the
// image ("image 2 of 3 from the gateway " + err): "is not an image (it
// looks like an HTML page)", "is a damaged PNG image (…)", a *BudgetError
// or a *ScansError, whose Detail the caller words, or ctx's error when it
// ended.
func Verify(ctx context.Context, data []byte, b *Budget, seen func(image.Image)) (Verified, error) {
	img, info, release, err := Decode(ctx, data, b)
	defer release()
	if err == nil && seen != nil {
		seen(img)
	}
	var (
		be *BudgetError
		se *ScansError
	)
	switch {
	case errors.As(err, &be), errors.As(err, &se):
		return Verified{}, err
	case ctx.Err() != nil && err != nil:
		return Verified{}, err
	case errors.Is(err, ErrNotImage):
		if what := DescribeContent(data); what != "" {
			return Verified{}, fmt.Errorf("is not an image (it looks like %s)", what)
		}
		return Verified{}, errors.New("is not an image")
	case err != nil:
		return Verified{}, fmt.Errorf("is a damaged %s image (%w)", info.Format.Name(), err)
	}
	return Verified{Data: data, Info: info}, nil
}
