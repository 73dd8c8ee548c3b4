package preview

import (
	"context"
	"image"

	"parley/media"
)

// thumbMinSide is the least a kept picture holds on its longer side: enough
// for half-block previews up to 128×64 cells at full quality (reduceGap
// times the pixels shown), under 200 KB, and cheap to make (a larger one
// costs a few more milliseconds of box filtering on the first preview). A
// larger preview decodes again and keeps the larger picture.
const thumbMinSide = 256

// thumb is a decoded picture kept so previews at other sizes skip decoding:
// reduced by an integer factor (box filter), turned as it is seen,
// premultiplied.
type thumb struct {
	pic  *image.RGBA
	full bool // not reduced: as sharp as the image gets
}

// serves reports whether previews that need need pixels on the longer side
// can be made from t.
func (t thumb) serves(need int) bool {
	return t.pic != nil && (t.full || max(t.pic.Rect.Dx(), t.pic.Rect.Dy()) >= need)
}

// makeThumb decodes data within b (stopping when ctx ends) and reduces it
// (thumbFrom); the decoded pixels are let go, and their share of b given
// back, as soon as the reduced picture exists.
func makeThumb(ctx context.Context, data []byte, info media.Info, o, need int, b *media.Budget) (thumb, error) {
	img, _, release, err := media.Decode(ctx, data, b)
	defer release()
	if err != nil {
		return thumb{}, err
	}
	return thumbFrom(img, info, o, need), nil
}

// thumbFrom reduces a decoded image by the largest integer factor that
// keeps at least max(need, thumbMinSide) pixels on the longer side, and
// turns it by its EXIF orientation o.
func thumbFrom(img image.Image, info media.Info, o, need int) thumb {
	k := max(1, max(info.Width, info.Height)/max(need, thumbMinSide))
	pic, ok := boxReduce(img, k, k)
	if !ok {
		pic = media.Scale(img, (info.Width+k-1)/k, (info.Height+k-1)/k)
	}
	if o >= 2 && o <= 8 {
		if r, ok := media.Orient(pic, o).(*image.RGBA); ok {
			pic = r
		}
	}
	return thumb{pic: pic, full: k == 1}
}
