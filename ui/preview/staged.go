package preview

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"
	"strings"

	"parley/media"
	"parley/media/sixel"
)

// The default size of a cell in pixels, for sixel pictures when the
// size is not known (the window size gives no pixels): xterm's with its
// default font.
const (
	DefaultCellWidth  = 10
	DefaultCellHeight = 20
)

// staged is what a Stage needs to draw a picture beside the frame: the
// protocol's data, made once in the command that rendered the picture.
// It is shared and read-only once made.
type staged struct {
	mode Mode
	// transmit (kitty direct) sends the picture, without placing it; pw×ph
	// is its size in pixels, which crops are counted in.
	transmit string
	pw, ph   int
	// pal (sixel) is the picture laid out on the whole box, cellW×cellH
	// pixels a cell; full is all of it encoded.
	pal  *sixel.Paletted
	full string
	// pic (iTerm2) is the picture laid out on the whole box; full is all
	// of it as an inline image.
	pic *image.RGBA
}

// markerBase opens the first cell of each row of a staged picture; the
// combining marks after it say the row and the id (markNibbles). Every
// other cell of the row is markerFill. Both are private-use characters of
// plane 16, one cell wide, which no font parley knows of uses (Nerd Fonts'
// icons are in plane 15), and no terminal ever sees them: the Stage puts
// blank cells in their place. Text that holds them (a model's reply)
// cannot draw a picture: a row is drawn only when its id is a picture the
// Stage was given, and ids are random for each run.
const (
	markerBase = '\U0010FFFC'
	markerFill = '\U0010FFFD'
	// markNibbles combining marks follow markerBase: three for the row,
	// eight for the id, four bits each, as U+0300 + the nibble.
	markNibbles = 11
	markFirst   = 0x300
)

// markerLines lays a cols×rows staged picture of image id out centred in
// w×h cells.
func markerLines(id uint32, cols, rows, w, h int) []string {
	top, left := (h-rows)/2, (w-cols)/2
	blank := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = blank
	}
	fill := strings.Repeat(string(markerFill), cols-1)
	for r := range rows {
		var b strings.Builder
		b.WriteString(blank[:left])
		b.WriteRune(markerBase)
		v := uint64(r)<<32 | uint64(id)
		for k := markNibbles - 1; k >= 0; k-- {
			b.WriteRune(rune(markFirst + (v >> (4 * k) & 0xf)))
		}
		b.WriteString(fill)
		b.WriteString(blank[:w-cols-left])
		lines[top+r] = b.String()
	}
	return lines
}

// renderStaged makes a picture a Stage draws: the marker lines and the
// protocol's data.
func renderStaged(data []byte, info media.Info, o, w, h int, opts Options, seed uint32, r Rendered, pics picturer) (Rendered, error) {
	aw, ah := min(w, MaxKittyCells), min(h, MaxKittyCells)
	if opts.Mode == Sixel {
		aw, ah = opts.sixelCells(aw, ah)
	}
	r.Cols, r.Rows = FitCells(r.Width, r.Height, aw, ah)
	r.X, r.Y = (w-r.Cols)/2, (h-r.Rows)/2
	r.ID = kittyID(seed, false)
	st := &staged{mode: opts.Mode}
	bg := toRGB(opts.Background)
	switch opts.Mode {
	case KittyDirect:
		tw, th := fitWithin(r.Width, r.Height, r.Cols*kittyCellW, r.Rows*kittyCellH)
		pngData, err := pngOf(data, info, o, r, tw, th, pics)
		if err != nil {
			return Rendered{}, err
		}
		st.pw, st.ph = tw, th
		st.transmit = transmitOnly(r.ID, pngData)
		r.Delete = deleteSeq(r.ID, false)
	case Sixel:
		cw, ch := opts.cell()
		bw, bh := r.Cols*cw, r.Rows*ch
		if int64(bw)*int64(bh) > sixel.MaxPixels {
			return Rendered{}, fmt.Errorf("cannot preview the image: a sixel picture of %d×%d pixels is too large for the terminal", bw, bh)
		}
		canvas, err := onCanvas(info, o, r, bw, bh, bg, pics)
		if err != nil {
			return Rendered{}, describe(err, info, data)
		}
		pal, err := sixel.Quantize(canvas, color.RGBA{bg.r, bg.g, bg.b, 0xff}, opts.colors())
		if err != nil {
			return Rendered{}, fmt.Errorf("cannot preview the image: %w", err)
		}
		st.pal = pal
		if st.full, err = pal.Encode(0, pal.H); err != nil {
			return Rendered{}, fmt.Errorf("cannot preview the image: %w", err)
		}
	case ITerm:
		canvas, err := onCanvas(info, o, r, r.Cols*kittyCellW, r.Rows*kittyCellH, bg, pics)
		if err != nil {
			return Rendered{}, describe(err, info, data)
		}
		st.pic = canvas
		if st.full, err = inlineImage(canvas, r.Cols, r.Rows); err != nil {
			return Rendered{}, err
		}
	}
	r.Lines = markerLines(r.ID, r.Cols, r.Rows, w, h)
	r.staged = st
	return r, nil
}

// pngOf is the picture as PNG at tw×th: the file itself when it is a PNG
// that needs neither scaling nor turning.
func pngOf(data []byte, info media.Info, o int, r Rendered, tw, th int, pics picturer) ([]byte, error) {
	if info.Format == media.PNG && o == 1 && tw == r.Width && th == r.Height {
		return data, nil
	}
	pic, err := pics(info, o, tw, th, max(tw, th))
	if err != nil {
		return nil, describe(err, info, data)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, pic); err != nil {
		return nil, fmt.Errorf("cannot preview the image: encoding it for the terminal failed: %w", err)
	}
	return buf.Bytes(), nil
}

// onCanvas is the picture scaled to fit bw×bh pixels (enlarged if need
// be, its aspect kept) and centred on an opaque canvas of that size in the
// background colour, so the picture covers its whole box.
func onCanvas(info media.Info, o int, r Rendered, bw, bh int, bg rgb, pics picturer) (*image.RGBA, error) {
	tw, th := fitUp(r.Width, r.Height, bw, bh)
	pic, err := pics(info, o, tw, th, max(tw, th))
	if err != nil {
		return nil, err
	}
	canvas := image.NewRGBA(image.Rect(0, 0, bw, bh))
	draw.Draw(canvas, canvas.Rect, image.NewUniform(color.RGBA{bg.r, bg.g, bg.b, 0xff}), image.Point{}, draw.Src)
	at := image.Pt((bw-tw)/2, (bh-th)/2)
	draw.Draw(canvas, image.Rectangle{Min: at, Max: at.Add(image.Pt(tw, th))}, pic, image.Point{}, draw.Over)
	return canvas, nil
}

// fitUp is pxW×pxH scaled, up or down, to fit bw×bh, the aspect ratio
// kept, at least 1×1.
func fitUp(pxW, pxH, bw, bh int) (int, int) {
	if pxW <= 0 || pxH <= 0 || bw <= 0 || bh <= 0 {
		return 1, 1
	}
	sw, sh, w, h := int64(pxW), int64(pxH), int64(bw), int64(bh)
	if sw*h >= sh*w {
		return bw, int(max(1, min(h, (sh*w+sw/2)/sw)))
	}
	return int(max(1, min(w, (sw*h+sh/2)/sh))), bh
}

// cell is the size of a cell in pixels the options give, else the default.
func (o Options) cell() (int, int) {
	if o.CellWidth > 0 && o.CellHeight > 0 {
		return o.CellWidth, o.CellHeight
	}
	return DefaultCellWidth, DefaultCellHeight
}

// sixelCells is the area of w×h cells cut to the largest sixel picture the
// terminal draws whole (Options.SixelWidth, SixelHeight), at least a cell.
func (o Options) sixelCells(w, h int) (int, int) {
	cw, ch := o.cell()
	if o.SixelWidth > 0 {
		w = max(1, min(w, o.SixelWidth/cw))
	}
	if o.SixelHeight > 0 {
		h = max(1, min(h, o.SixelHeight/ch))
	}
	return w, h
}

// colors is how many colour registers a sixel picture may use.
func (o Options) colors() int {
	if o.Colors > 0 {
		return min(o.Colors, sixel.MaxColors)
	}
	return sixel.MaxColors
}

// transmitOnly sends a PNG as image id without placing it (a=t), quietly.
func transmitOnly(id uint32, png []byte) string {
	seq := transmitSeq(id, png, 0, 0, false)
	// transmitSeq's first command transmits and places virtually; direct
	// placement only transmits.
	return strings.Replace(seq, "a=T,f=100,U=1,", "a=t,f=100,", 1)
}

// inlineImage is the iTerm2 inline image (OSC 1337 File) of pic stretched
// over cols×rows cells: pic already has the box's shape.
func inlineImage(pic *image.RGBA, cols, rows int) (string, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, pic); err != nil {
		return "", fmt.Errorf("cannot preview the image: encoding it for the terminal failed: %w", err)
	}
	return "\x1b]1337;File=inline=1;size=" + strconv.Itoa(buf.Len()) +
		";width=" + strconv.Itoa(cols) + ";height=" + strconv.Itoa(rows) +
		";preserveAspectRatio=0:" + base64.StdEncoding.EncodeToString(buf.Bytes()) + "\a", nil
}

// rows returns the sequence that draws rows r0 to r0+n-1 of the picture
// (all of it from the cache) at the cursor; kitty direct placements are
// made by the Stage itself.
func (st *staged) rows(r Rendered, r0, n int) (string, error) {
	if r0 == 0 && n == r.Rows {
		return st.full, nil
	}
	switch st.mode {
	case Sixel:
		ch := st.pal.H / r.Rows
		return st.pal.Encode(r0*ch, (r0+n)*ch)
	case ITerm:
		h := st.pic.Rect.Dy()
		y0, y1 := r0*h/r.Rows, (r0+n)*h/r.Rows
		return inlineImage(st.pic.SubImage(image.Rect(0, y0, st.pic.Rect.Dx(), y1)).(*image.RGBA), r.Cols, n)
	}
	return "", nil
}
