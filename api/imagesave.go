package api

import (
	"context"
	"errors"
	"fmt"

	"parley/media"
)

// maxImageDownload bounds one image fetched from a link in a reply: far
// more than any generated image file, and little enough to hold.
const maxImageDownload = 64 << 20

// VerifyImages returns the images of a reply ready to save: each decoded
// whole (so a cut-off file is caught) under media.DecodeBudget, whose
// header is checked before any pixel is allocated. Links are fetched with
// download. An empty reply, an entry with neither data nor link, a link when
// download is nil, and bytes that are no image or too big to decode are
// errors; nothing is returned then, so nothing can be half-saved.
func VerifyImages(ctx context.Context, reply *ImageReply, download func(ctx context.Context, url string) ([]byte, error)) ([]media.Verified, error) {
	if reply == nil || len(reply.Data) == 0 {
		return nil, errors.New("the gateway answered without any image (empty data array); try again or try another model")
	}
	total := len(reply.Data) + reply.Dropped
	out := make([]media.Verified, 0, len(reply.Data))
	for i, d := range reply.Data {
		which := fmt.Sprintf("image %d of %d", i+1, total)
		data := d.File
		switch {
		case data != nil:
		case d.URL != "":
			if download == nil {
				return nil, fmt.Errorf("%s came as a link (%s) and downloading is not enabled here; ask for b64_json instead", which, redactURL(d.URL))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			b, err := download(ctx, d.URL)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", which, err)
			}
			data = b
		default:
			return nil, fmt.Errorf("%s from the gateway has neither b64_json nor url; nothing was saved", which)
		}
		v, err := media.Verify(data, media.DecodeBudget)
		var be *media.BudgetError
		switch {
		case errors.As(err, &be):
			return nil, fmt.Errorf("the gateway's %s is %s, so nothing was saved; ask for a smaller size", which, be.Detail())
		case err != nil:
			return nil, fmt.Errorf("%s from the gateway %w; nothing was saved", which, err)
		}
		out = append(out, v)
	}
	return out, nil
}
