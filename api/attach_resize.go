package api

import (
	"context"
	"errors"
	"fmt"
	"math"

	"parley/internal/bytesize"
	"parley/media"
)

// shrinkAttempts bounds the scale-down loop for images that are still over
// MaxBytes at MaxSide (each attempt shrinks by the size ratio).
const shrinkAttempts = 8

// shrink decodes a.Data within lim.Budget (a header claiming gigabytes of
// pixels is refused before anything is allocated, and the decode waits
// while other images hold the budget) and scales it to fit lim,
// re-encoding it by media.Reencode's rules until it is within
// lim.MaxBytes. The EXIF orientation is applied to the pixels, since the
// new file carries no EXIF. The decoded pixels hold their share of the
// budget until shrink returns; ctx ending stops the decode and the
// attempts.
func shrink(ctx context.Context, a Attachment, info media.Info, lim AttachLimits) (Attachment, error) {
	img, _, release, err := media.Decode(ctx, a.Data, lim.Budget)
	defer release()
	var be *media.BudgetError
	switch {
	case errors.As(err, &be):
		return Attachment{}, fmt.Errorf("cannot attach %q: it is %s; shrink it first", a.Name, be.Detail())
	case ctx.Err() != nil:
		return Attachment{}, fmt.Errorf("attaching %q was stopped: %w", a.Name, ctx.Err())
	case err != nil:
		return Attachment{}, fmt.Errorf("cannot attach %q: the %s image cannot be decoded (%w); the file may be damaged", a.Name, info.Format.Name(), err)
	}
	orientation := media.Orientation(a.Data)
	if orientation >= 5 { // turned by 90°: report the size the user sees
		a.OrigWidth, a.OrigHeight = a.OrigHeight, a.OrigWidth
	}
	b := img.Bounds()
	w, h := media.FitWithin(b.Dx(), b.Dy(), lim.MaxSide)
	var lastSize int
	for range shrinkAttempts {
		if err := ctx.Err(); err != nil {
			return Attachment{}, fmt.Errorf("attaching %q was stopped: %w", a.Name, err)
		}
		out := img
		if w != b.Dx() || h != b.Dy() {
			out = media.Scale(img, w, h)
		}
		out = media.Orient(out, orientation)
		data, of, err := media.Reencode(out, info.Format)
		if err != nil {
			return Attachment{}, fmt.Errorf("cannot attach %q: re-encoding the scaled image failed: %w", a.Name, err)
		}
		if int64(len(data)) <= lim.MaxBytes {
			ob := out.Bounds()
			a.Data, a.MIME, a.Bytes = data, of.MIME(), len(data)
			a.Width, a.Height = ob.Dx(), ob.Dy()
			a.Resized = true
			return a, nil
		}
		lastSize = len(data)
		ratio := math.Sqrt(float64(lim.MaxBytes)/float64(len(data))) * 0.9
		w, h = max(1, int(float64(w)*ratio)), max(1, int(float64(h)*ratio))
	}
	return Attachment{}, fmt.Errorf("cannot attach %q: even scaled down it stays over the %s limit (last try %s); raise attach_max_bytes or shrink it yourself",
		a.Name, bytesize.Format(lim.MaxBytes), bytesize.Format(int64(lastSize)))
}
