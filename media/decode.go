package media

import (
	"context"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"
)

// Decode decodes the pixels of an image (the first frame of a GIF) within
// b, stopping when ctx ends. The header is checked first: one that claims
// more than b.Total() fails with *BudgetError, a JPEG of more than
// MaxJPEGScans scans with *ScansError, both before anything is allocated.
// Then the image's Info.Decoded is reserved in b (waiting while other
// decodes hold it) and held until release is called: call it once the
// pixels are no longer needed (release is never nil, so defer it at once).
// A nil b is a budget of DecodeBudget for this decode alone.
//
// Other failures are ErrNotImage, a header error from Inspect, ctx's error
// (wrapped) when it ended, or the decoder's error for damaged or cut-off
// data.
func Decode(ctx context.Context, data []byte, b *Budget) (img image.Image, info Info, release func(), err error) {
	release = func() {}
	if b == nil {
		b = NewBudget(DecodeBudget)
	}
	info, err = Inspect(data)
	if err != nil {
		return nil, info, release, err
	}
	if err := info.Check(b.Total()); err != nil {
		return nil, info, release, err
	}
	rel, err := b.reserve(ctx, info.Decoded)
	if err != nil {
		return nil, info, release, fmt.Errorf("decoding stopped: %w", err)
	}
	img, err = decodePixels(ctx, info.Format, data)
	// A decoder that finished its last read before ctx ended still
	// returns pixels; nobody wants them now, nor the work that follows.
	if ctx.Err() != nil {
		rel()
		return nil, info, release, fmt.Errorf("decoding stopped: %w", ctx.Err())
	}
	if err != nil {
		rel()
		return nil, info, release, err
	}
	// The decoders read the same header Inspect did; a disagreement would
	// mean the budget was checked against the wrong size.
	if bd := img.Bounds(); bd.Dx() != info.Width || bd.Dy() != info.Height {
		rel()
		return nil, info, release, fmt.Errorf("the %s image decodes to %dx%d but its header says %dx%d", info.Format.Name(), bd.Dx(), bd.Dy(), info.Width, info.Height)
	}
	return img, info, rel, nil
}

func decodePixels(ctx context.Context, f Format, data []byte) (image.Image, error) {
	r := &ctxReader{ctx: ctx, data: data}
	switch f {
	case PNG:
		return png.Decode(r)
	case JPEG:
		if l, err := jpegLayout(data); err == nil {
			r.cuts = l.scanAt
		}
		return jpeg.Decode(r)
	case GIF:
		return gif.Decode(r)
	case WEBP:
		return webp.Decode(r)
	}
	return nil, ErrNotImage
}

// readChunk is the most a ctxReader hands a decoder at once: the work a
// decoder does between two reads is bounded by what it was given, and 1 KB
// is a millisecond or two of it at most (a 1 KB deflate stream of zeros
// inflates to 1 MB), while a read costs tens of nanoseconds.
const readChunk = 1 << 10

// ctxReader feeds a decoder its image in pieces and fails once ctx ends,
// so a decoder stops at its next read. The standard decoders cannot be
// interrupted otherwise. A read also ends at each offset in cuts (the
// starts of a JPEG's scans): image/jpeg reads the whole of a progressive
// scan's few bytes at once and then visits every block of the image, so
// without the cuts a hundred scans could be decoded between two reads.
// What no read can interrupt is one scan, or the final pass that turns a
// progressive JPEG's coefficients into pixels (TestDecodeStopsWhenCancelled
// measures both).
type ctxReader struct {
	ctx  context.Context
	data []byte
	off  int
	cuts []int // ascending offsets
}

func (r *ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if r.off >= len(r.data) {
		return 0, io.EOF
	}
	end := min(len(r.data), r.off+readChunk, r.off+len(p))
	for len(r.cuts) > 0 && r.cuts[0] <= r.off {
		r.cuts = r.cuts[1:]
	}
	if len(r.cuts) > 0 {
		end = min(end, r.cuts[0])
	}
	n := copy(p, r.data[r.off:end])
	r.off += n
	return n, nil
}
