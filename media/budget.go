package media

import (
	"context"
	"fmt"
	"sync/atomic"

	"parley/internal/bytesize"

	"golang.org/x/sync/semaphore"
)

// DecodeBudget is the most memory parley lets one image's decoding take,
// counted as Info.Decoded (decoded bytes, not pixels): 256 MB holds about 64
// megapixels of 8-bit RGBA, 32 of 16-bit PNG, or a baseline 108-megapixel
// 4:2:0 JPEG from a phone, while a header that claims more is refused before
// any pixel is allocated. It is also the default total of a Budget, so the
// images being decoded at once take no more than one image at the limit.
const DecodeBudget int64 = 256_000_000

// Budget is the memory the image decodes of one program (a chat screen, one
// command) may hold at once, shared by everything that decodes there:
// attachments being scaled, previews, generated images being checked. Each
// decode reserves its image's Info.Decoded before any pixel is allocated
// and gives it back when its caller is done with the pixels (the release
// func Decode returns); a decode that does not fit waits, first come first
// served, until others release or its context ends. One image may take the
// whole budget, never more.
//
// Its owner (the chat's model, a command's run) makes one and passes it
// down; nothing in parley keeps one in a package variable.
type Budget struct {
	total int64
	sem   *semaphore.Weighted
	held  atomic.Int64
}

// NewBudget makes a budget of total bytes (DecodeBudget when total <= 0).
func NewBudget(total int64) *Budget {
	if total <= 0 {
		total = DecodeBudget
	}
	return &Budget{total: total, sem: semaphore.NewWeighted(total)}
}

// Total is the most one image, and all images together, may take.
func (b *Budget) Total() int64 { return b.total }

// Held is the memory reserved by decodes in flight now.
func (b *Budget) Held() int64 { return b.held.Load() }

// reserve waits until n bytes are free (n <= Total, checked by the caller)
// or ctx ends, and returns the func that gives them back; calling it more
// than once gives them back once.
func (b *Budget) reserve(ctx context.Context, n int64) (func(), error) {
	n = max(n, 1)
	if err := b.sem.Acquire(ctx, n); err != nil {
		return func() {}, err
	}
	b.held.Add(n)
	var done atomic.Bool
	return func() {
		if done.CompareAndSwap(false, true) {
			b.held.Add(-n)
			b.sem.Release(n)
		}
	}, nil
}

// BudgetError says that an image would take more memory to decode than the
// budget allows. Callers put it into their own sentence with Detail.
type BudgetError struct {
	Width, Height int
	Decoded       int64 // Info.Decoded
	Budget        int64
}

// Detail is the refusal without a subject: "100000x100000 pixels (40.0 GB
// decoded), more than parley decodes (256.0 MB)".
func (e *BudgetError) Detail() string {
	return fmt.Sprintf("%dx%d pixels (%s decoded), more than parley decodes (%s)",
		e.Width, e.Height, bytesize.Format(e.Decoded), bytesize.Format(e.Budget))
}

func (e *BudgetError) Error() string { return "the image is " + e.Detail() }

// Check returns a *BudgetError when decoding the image would take more than
// budget bytes.
func (i Info) Check(budget int64) error {
	if i.Decoded > budget {
		return &BudgetError{Width: i.Width, Height: i.Height, Decoded: i.Decoded, Budget: budget}
	}
	return nil
}
