package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"

	"github.com/charmbracelet/colorprofile"

	"parley/media"
)

// MaxCells is the widest and tallest area a preview is drawn into: far
// beyond any terminal, small enough that a mistaken size cannot make it
// build megabytes of lines.
const MaxCells = 1000

// The kitty picture is transmitted at up to this many pixels per cell (a
// HiDPI cell is about 16×32 device pixels; a common one 9×18), so it is
// sharp on any screen without sending a full-size photo for a small
// preview. The terminal scales it to the cells it really has.
const (
	kittyCellW = 16
	kittyCellH = 32
)

// Options say how to draw.
type Options struct {
	// Mode is how (Select). Kitty with a profile below ANSI256 draws half
	// blocks: the id travels in a colour such a screen cannot show.
	Mode Mode
	// Profile is the colour profile of the program's output (the one given
	// to tea.WithColorProfile): TrueColor, ANSI256, ANSI, or below (no
	// colour: shade characters).
	Profile colorprofile.Profile
	// Background is the colour transparent pixels are laid over, and tells
	// the no-colour fallback whether the screen is dark; nil means black.
	Background color.Color
	// Budget is the decode budget renders draw on (media.Decode): nil is
	// the cache's own. A cache keeps refusals, so give all renders
	// through one cache the same budget.
	Budget *media.Budget
	// CellWidth and CellHeight are a cell's size in pixels, as the
	// terminal said (sixel pictures are made at that size); 0 means
	// DefaultCellWidth×DefaultCellHeight.
	CellWidth, CellHeight int
	// Colors is how many colour registers a sixel picture may use (the
	// terminal's XTSMGRAPHICS answer); 0 means sixel.MaxColors.
	Colors int
	// SixelWidth and SixelHeight are the largest sixel picture the
	// terminal draws whole, in pixels (its XTSMGRAPHICS geometry: xterm
	// crops what is larger); a sixel picture is made to fit them. 0 means
	// no limit is known.
	SixelWidth, SixelHeight int
}

// Rendered is a picture ready for the screen. Its fields are shared with
// the cache: treat them as read-only.
type Rendered struct {
	// Lines are exactly h lines of exactly w cells, the picture centred.
	Lines []string
	// Transmit (kitty only) sends the picture to the terminal. Write it
	// once, outside the frame (tea.Raw), before or with the first frame
	// that shows Lines; Transmitted tracks that.
	Transmit string
	// Delete (kitty only) frees the picture in the terminal when it is no
	// longer shown anywhere.
	Delete string
	// ID is the kitty image id, and the id a Stage knows a staged picture
	// by (0 for half blocks and Off).
	ID uint32
	// Mode is how it was drawn, which differs from Options.Mode when kitty
	// fell back to half blocks.
	Mode Mode
	// X, Y, Cols and Rows are the box the picture takes within the lines.
	X, Y, Cols, Rows int
	// Width and Height are the picture's size in pixels as it is seen
	// (after EXIF orientation); Format is its file format.
	Width, Height int
	Format        media.Format

	// staged is what a Stage draws a KittyDirect, Sixel or ITerm picture
	// with.
	staged *staged
}

// picturer gives the picture scaled to tw×th pixels as it is seen; need is
// the longest side, in pixels, of the source it should be scaled from for
// full quality. Its errors come from media and are worded by render.
type picturer func(info media.Info, o, tw, th, need int) (*image.RGBA, error)

// render draws the image in data into w×h cells (Cache.Render's work),
// with the seed of the kitty image id given, and the pictures taken from
// pics.
func render(data []byte, w, h int, opts Options, seed uint32, pics picturer) (Rendered, error) {
	if w < 1 || h < 1 || w > MaxCells || h > MaxCells {
		return Rendered{}, fmt.Errorf("cannot preview an image in %dx%d cells; the area must be 1x1 to %dx%d", w, h, MaxCells, MaxCells)
	}
	info, err := media.Inspect(data)
	if err != nil {
		return Rendered{}, describe(err, info, data)
	}
	o := media.Orientation(data)
	r := Rendered{Mode: opts.Mode, Width: info.Width, Height: info.Height, Format: info.Format}
	if o >= 5 {
		r.Width, r.Height = info.Height, info.Width
	}
	if opts.Mode == Off {
		r.Cols, r.Rows = FitCells(r.Width, r.Height, w, h)
		r.X, r.Y = (w-r.Cols)/2, (h-r.Rows)/2
		r.Lines = frameLines(info.Format.Name(), fmt.Sprintf("%d×%d", r.Width, r.Height), r.Cols, r.Rows, w, h)
		return r, nil
	}
	if err := info.Check(opts.budgetTotal()); err != nil {
		return Rendered{}, describe(err, info, data)
	}
	if opts.Mode.placeholders() && opts.Profile >= colorprofile.ANSI256 {
		return renderKitty(data, info, o, w, h, opts, seed, r, pics)
	}
	if opts.Mode.Staged() {
		return renderStaged(data, info, o, w, h, opts, seed, r, pics)
	}
	r.Mode = Blocks
	pw, ph := fitPixels(r.Width, r.Height, w, h)
	pic, err := pics(info, o, pw, ph, max(pw, ph)*reduceGap)
	if err != nil {
		return Rendered{}, describe(err, info, data)
	}
	r.Cols, r.Rows = pw, (ph+1)/2
	r.X, r.Y = (w-r.Cols)/2, (h-r.Rows)/2
	r.Lines = blockLines(pic, w, h, opts.Profile, toRGB(opts.Background))
	return r, nil
}

// renderKitty makes the placeholders and the transmit commands. A PNG that
// needs neither scaling nor turning is sent as it is, without decoding; any
// other picture is decoded, scaled and encoded as PNG.
func renderKitty(data []byte, info media.Info, o, w, h int, opts Options, seed uint32, r Rendered, pics picturer) (Rendered, error) {
	tmux := opts.Mode == KittyTmux
	indexed := tmux || opts.Profile < colorprofile.TrueColor
	r.Cols, r.Rows = FitCells(r.Width, r.Height, min(w, MaxKittyCells), min(h, MaxKittyCells))
	r.X, r.Y = (w-r.Cols)/2, (h-r.Rows)/2
	tw, th := fitWithin(r.Width, r.Height, r.Cols*kittyCellW, r.Rows*kittyCellH)
	pngData := data
	if info.Format != media.PNG || o != 1 || tw != r.Width || th != r.Height {
		pic, err := pics(info, o, tw, th, max(tw, th))
		if err != nil {
			return Rendered{}, describe(err, info, data)
		}
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, pic); err != nil {
			return Rendered{}, fmt.Errorf("cannot preview the image: encoding it for the terminal failed: %w", err)
		}
		pngData = buf.Bytes()
	}
	r.ID = kittyID(seed, indexed)
	r.Lines = placeholderLines(r.ID, indexed, r.Cols, r.Rows, w, h)
	r.Transmit = transmitSeq(r.ID, pngData, r.Cols, r.Rows, tmux)
	r.Delete = deleteSeq(r.ID, tmux)
	return r, nil
}

// budgetTotal is the most one image may take to decode.
func (o Options) budgetTotal() int64 {
	if o.Budget == nil {
		return media.DecodeBudget
	}
	return o.Budget.Total()
}

// describe turns a media error into a sentence about the preview.
func describe(err error, info media.Info, data []byte) error {
	var (
		be *media.BudgetError
		se *media.ScansError
	)
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("the preview was stopped: %w", context.Canceled)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the preview was stopped: %w", context.DeadlineExceeded)
	case errors.As(err, &be):
		return fmt.Errorf("cannot preview the image: it is %s", be.Detail())
	case errors.As(err, &se):
		return fmt.Errorf("cannot preview the image: it is %s", se.Detail())
	case errors.Is(err, media.ErrNotImage):
		if what := media.DescribeContent(data); what != "" {
			return fmt.Errorf("cannot preview the file: it is not an image (it looks like %s)", what)
		}
		return fmt.Errorf("cannot preview the file: it is %w", err)
	case info.Format != "":
		return fmt.Errorf("cannot preview the %s image: it is damaged (%w)", info.Format.Name(), err)
	}
	return fmt.Errorf("cannot preview the image: %w", err)
}
