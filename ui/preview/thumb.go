package preview

import (
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

// makeThumb decodes data and reduces it by the largest integer factor that
// keeps at least max(need, thumbMinSide) pixels on the longer side.
func makeThumb(data []byte, info media.Info, o, need int, budget int64) (thumb, error) {
	img, _, err := media.Decode(data, budget)
	if err != nil {
		return thumb{}, err
	}
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
	return thumb{pic: pic, full: k == 1}, nil
}
