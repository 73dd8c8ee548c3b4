package api

import (
	"context"
	"errors"
	"fmt"
	"image"

	"parley/media"
)

// maxImageDownload bounds one image fetched from a link in a reply: far
// more than any generated image file, and little enough to hold.
const maxImageDownload = 64 << 20

// VerifyImages returns the images of a reply ready to save: each decoded
// whole (so a cut-off file is caught) within b (nil: media.DecodeBudget
// for each image alone), whose header is checked before any pixel is
// allocated. Links are fetched with download. seen, when not nil, gets
// each image's pixels while they are held, so a caller can keep what it
// shows of them instead of decoding the image again. An empty reply, an
// entry with neither data nor link, a link when download is nil, and bytes
// that are no image or too big to decode are errors; nothing is returned
// then, so nothing can be half-saved. ctx ending stops it.
func VerifyImages(ctx context.Context, reply *ImageReply, download func(ctx context.Context, url string) ([]byte, error),
	b *media.Budget, seen func(data []byte, img image.Image)) ([]media.Verified, error) {
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
			got, err := download(ctx, d.URL)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", which, err)
			}
			data = got
		default:
			return nil, fmt.Errorf("%s from the gateway has neither b64_json nor url; nothing was saved", which)
		}
		var keep func(image.Image)
		if seen != nil {
			keep = func(img image.Image) { seen(data, img) }
		}
		v, err := media.Verify(ctx, data, b, keep)
		var (
			be *media.BudgetError
			se *media.ScansError
		)
		switch {
		case errors.As(err, &be):
			return nil, fmt.Errorf("the gateway's %s is %s, so nothing was saved; ask for a smaller size", which, be.Detail())
		case errors.As(err, &se):
			return nil, fmt.Errorf("the gateway's %s is %s, so nothing was saved; try again or ask for PNG", which, se.Detail())
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			return nil, fmt.Errorf("%s from the gateway %w; nothing was saved", which, err)
		}
		out = append(out, v)
	}
	return out, nil
}
