package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"

	"golang.org/x/image/webp"
)

// ErrNotImage is what Inspect, Decode and Verify return for bytes that are
// none of PNG, JPEG, GIF and WEBP; DescribeContent says what they are.
var ErrNotImage = errors.New("not a PNG, JPEG, WEBP or GIF image")

// Info is what an image's header says, read without decoding any pixel.
type Info struct {
	Format        Format
	Width, Height int // as stored, before any EXIF orientation
	// Decoded is how much memory decoding the pixels allocates, in bytes: the
	// image in the decoder's own colour model (a 16-bit PNG takes 8 bytes a
	// pixel, a 4:2:0 JPEG 1.5) plus the whole-image buffers some decoders
	// keep besides it (progressive JPEG coefficients, interlaced PNG passes,
	// lossless WEBP's transforms). It bounds those buffers from above, so a
	// budget checked against it holds; the decoders' fixed state (Huffman
	// tables, the inflate window) adds well under 1 MiB (see
	// TestDecodedBoundsAllocation).
	Decoded int64
}

// Inspect reads the format, the dimensions and the decoding cost of an
// image from its header (and, for a JPEG, from all its markers). It fails
// with ErrNotImage for other content, with a *ScansError for a JPEG of
// more than MaxJPEGScans scans, and with a wrapped decoder error for a
// header that cannot be read; the returned Info still names the format
// (and, but for ErrNotImage, the size) then.
func Inspect(data []byte) (Info, error) {
	info := Info{Format: Sniff(data)}
	var err error
	switch info.Format {
	case PNG:
		err = inspectPNG(data, &info)
	case JPEG:
		err = inspectJPEG(data, &info)
	case GIF:
		err = inspectGIF(data, &info)
	case WEBP:
		err = inspectWEBP(data, &info)
	default:
		return info, ErrNotImage
	}
	if err != nil {
		return info, err
	}
	if info.Width <= 0 || info.Height <= 0 {
		return info, fmt.Errorf("the %s image has no pixels (%dx%d)", info.Format.Name(), info.Width, info.Height)
	}
	return info, nil
}

// mul multiplies non-negative sizes, saturating instead of overflowing, so a
// header claiming 2³¹×2³¹ pixels of 8 bytes is simply "too much".
func mul(factors ...int64) int64 {
	p := int64(1)
	for _, f := range factors {
		if f < 0 {
			f = 0
		}
		if f != 0 && p > math.MaxInt64/f {
			return math.MaxInt64
		}
		p *= f
	}
	return p
}

func add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// inspectPNG takes the dimensions from image/png (which checks the header's
// CRC and the depth/colour-type combination) and the cost from IHDR and a
// tRNS chunk: image/png decodes 16-bit colour to 8 bytes a pixel, 8-bit
// colour (and anything with tRNS) to 4, grey and palettes to 1, and an
// interlaced image through a second, pass-sized image.
func inspectPNG(data []byte, info *Info) error {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return err
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	const ihdr = 8 + 8 // signature, then the IHDR chunk's length and type
	if len(data) < ihdr+13 {
		return errors.New("png: IHDR is cut short")
	}
	depth, colorType, interlaced := data[ihdr+8], data[ihdr+9], data[ihdr+12] != 0
	trns := pngHasChunkBeforeIDAT(data, "tRNS")
	var bpp int64
	switch colorType {
	case 0: // grey
		switch {
		case depth == 16 && trns:
			bpp = 8
		case depth == 16:
			bpp = 2
		case trns:
			bpp = 4
		default:
			bpp = 1
		}
	case 2: // RGB
		bpp = 4
		if depth == 16 {
			bpp = 8
		}
	case 3: // palette
		bpp = 1
	default: // grey+alpha, RGBA
		bpp = 4
		if depth == 16 {
			bpp = 8
		}
	}
	w, h := int64(cfg.Width), int64(cfg.Height)
	img := mul(w, h, bpp)
	if interlaced {
		img = add(img, img)
	}
	// Two raw rows (current and previous) of up to 8 bytes a pixel.
	info.Decoded = add(img, mul(2, add(mul(w, 8), 1)))
	return nil
}

// pngHasChunkBeforeIDAT reports whether a chunk of type typ comes before
// the image data.
func pngHasChunkBeforeIDAT(data []byte, typ string) bool {
	for i := 8; i+8 <= len(data); {
		n := int64(binary.BigEndian.Uint32(data[i:]))
		switch t := string(data[i+4 : i+8]); t {
		case typ:
			return true
		case "IDAT", "IEND":
			return false
		}
		if n > int64(len(data)) {
			return false
		}
		i += 12 + int(n)
	}
	return false
}

// inspectJPEG takes the dimensions from image/jpeg, then walks the markers
// to see what image/jpeg will allocate: one plane per component at its
// sampling (rounded up to whole MCUs), four bytes a sample more for
// progressive coefficients, and a 4-byte-a-pixel RGBA or CMYK copy for RGB
// and 4-component files. A file of more than MaxJPEGScans scans is refused
// with a *ScansError: its cost is in CPU, not memory.
func inspectJPEG(data []byte, info *Info) error {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return err
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	l, err := jpegLayout(data)
	if err != nil {
		return err
	}
	w, h := int64(cfg.Width), int64(cfg.Height)
	hmax, vmax := 1, 1
	for _, c := range l.comps {
		hmax, vmax = max(hmax, c.h), max(vmax, c.v)
	}
	if len(l.comps) == 1 {
		hmax, vmax = 1, 1
	}
	mxx := (w + int64(8*hmax) - 1) / int64(8*hmax)
	myy := (h + int64(8*vmax) - 1) / int64(8*vmax)
	var samples int64
	for _, c := range l.comps {
		ch, cv := c.h, c.v
		if len(l.comps) == 1 {
			ch, cv = 1, 1
		}
		samples = add(samples, mul(8*int64(ch), mxx, 8*int64(cv), myy))
	}
	total := samples
	if l.progressive {
		total = add(total, mul(4, samples))
	}
	rgb := len(l.comps) == 3 && !l.jfif && (l.adobeRGB || l.comps[0].id == 'R' && l.comps[1].id == 'G' && l.comps[2].id == 'B')
	if len(l.comps) == 4 || rgb {
		total = add(total, mul(4, w, h))
	}
	info.Decoded = total
	if l.scans > MaxJPEGScans {
		return &ScansError{Scans: l.scans, Limit: MaxJPEGScans}
	}
	return nil
}

// inspectGIF counts the logical screen: image/gif decodes the first frame
// (at most the screen's size) to one byte a pixel and copies it once more
// when the frame is interlaced.
func inspectGIF(data []byte, info *Info) error {
	cfg, err := gif.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return err
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	info.Decoded = mul(2, int64(cfg.Width), int64(cfg.Height))
	return nil
}

// inspectWEBP takes the dimensions from x/image/webp and the cost from the
// chunks: lossy VP8 decodes to 4:2:0 planes rounded up to 16-pixel
// macroblocks (plus filter state), lossless VP8L to 4 bytes a pixel plus as
// much again for a colour-indexing transform, and an ALPH chunk adds an
// alpha plane (decoded through VP8L when compressed).
func inspectWEBP(data []byte, info *Info) error {
	cfg, err := webp.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return err
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	w, h := int64(cfg.Width), int64(cfg.Height)
	var lossy, lossless, alpha, alphaCompressed bool
	for i := 12; i+8 <= len(data); {
		n := int64(binary.LittleEndian.Uint32(data[i+4:]))
		switch string(data[i : i+4]) {
		case "VP8 ":
			lossy = true
		case "VP8L":
			lossless = true
		case "ALPH":
			alpha = true
			alphaCompressed = i+8 < len(data) && data[i+8]&0x03 == 1
		}
		if n > int64(len(data)) {
			break
		}
		i += 8 + int(n+n&1)
	}
	var total int64
	if lossy || !lossless {
		mbs := mul((w+15)/16, (h+15)/16)
		total = add(mul(384+4, mbs), int64(len(data)))
	}
	if lossless {
		total = add(total, mul(8, w, h))
	}
	if alpha {
		total = add(total, mul(w, h))
		if alphaCompressed {
			total = add(total, mul(8, w, h))
		}
	}
	info.Decoded = total
	return nil
}
