package preview

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"image"

	"parley/media"
)

// Render draws the image in data into w×h cells without a cache: the
// reference Cache.Render is held to, and a short way for tests to draw.
// It is RenderContext without a way to stop it.
func Render(data []byte, w, h int, opts Options) (Rendered, error) {
	return RenderContext(context.Background(), data, w, h, opts)
}

// RenderContext is Render that stops decoding when ctx ends (and then
// returns an error wrapping ctx's).
func RenderContext(ctx context.Context, data []byte, w, h int, opts Options) (Rendered, error) {
	var seed uint32
	if opts.Mode.IsKitty() {
		sum := sha256.Sum256(data)
		seed = binary.BigEndian.Uint32(sum[:4])
	}
	return render(data, w, h, opts, seed, decodeAndScale(ctx, data, opts.Budget))
}

// decodeAndScale is the picturer without a cache: decode, then scale the
// way the cache does from the picture it keeps, so both give the same
// preview.
func decodeAndScale(ctx context.Context, data []byte, b *media.Budget) picturer {
	return func(info media.Info, o, tw, th, need int) (*image.RGBA, error) {
		t, err := makeThumb(ctx, data, info, o, need, b)
		if err != nil {
			return nil, err
		}
		return scalePicture(t.pic, tw, th), nil
	}
}
