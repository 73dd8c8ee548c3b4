package media

import (
	"errors"
	"fmt"
)

// Verified is image bytes that decoded whole within the budget, with what
// their header said. Verify makes them, and SaveImages trusts them instead
// of decoding every image a second time.
type Verified struct {
	Data []byte
	Info Info
}

// Verify checks that data is a whole image of a known format by decoding
// every pixel under budget, since a header check alone passes a cut-off
// file. Its errors complete a sentence about the image ("image 2 of 3 from
// the gateway " + err): "is not an image (it looks like an HTML page)", "is
// a damaged PNG image (…)", or a *BudgetError, whose Detail the caller words.
func Verify(data []byte, budget int64) (Verified, error) {
	_, info, err := Decode(data, budget)
	var be *BudgetError
	switch {
	case errors.As(err, &be):
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
