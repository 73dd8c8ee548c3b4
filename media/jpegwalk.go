package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// MaxJPEGScans is the most scans (passes over the picture) parley decodes
// in one JPEG. image/jpeg visits every block of the image in every scan of
// a progressive file however few bytes the scan has, so a 7000x7000 file
// of 2,000 scans (under 250 KB) costs over 30 seconds of CPU; at 100 the
// worst file costs under 2 seconds (BenchmarkScanBomb). Real files have
// one (baseline) to about a dozen (libjpeg's progressive script has 10,
// mozjpeg's a few more); libjpeg-turbo itself refuses past 1,000.
const MaxJPEGScans = 100

// ScansError says that a JPEG has more scans than parley decodes. Callers
// put it into their own sentence with Detail.
type ScansError struct {
	Scans, Limit int
}

// Detail is the refusal without a subject: "a JPEG of 2000 scans, more
// than parley decodes (100)".
func (e *ScansError) Detail() string {
	return fmt.Sprintf("a JPEG of %d scans, more than parley decodes (%d)", e.Scans, e.Limit)
}

func (e *ScansError) Error() string { return "the image is " + e.Detail() }

type jpegComp struct {
	id   byte
	h, v int
}

// jpegMarkers is what the walk over a JPEG's markers found.
type jpegMarkers struct {
	comps       []jpegComp
	progressive bool
	jfif        bool
	adobeRGB    bool // an Adobe APP14 segment with transform 0 (RGB)
	// scans counts the SOS markers up to EOI (or the end of the data);
	// scanAt holds the offsets of the first MaxJPEGScans+1 of them.
	scans  int
	scanAt []int
}

// jpegLayout reads the frame header and the APP segments that decide the
// colour conversion, then walks on through every scan to EOI, finding the
// next marker after each scan's entropy-coded data as image/jpeg does
// (a 0xFF that is neither stuffing, fill nor a restart marker), so it
// counts the scans the decoder will see. Data cut off after the first scan
// is no error here: the decoder reports it.
func jpegLayout(data []byte) (jpegMarkers, error) {
	var l jpegMarkers
	i := 2
	for i+4 <= len(data) {
		if data[i] != 0xFF {
			return l, errors.New("jpeg: missing marker")
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m == 0xD8 || m == 0x01 || m >= 0xD0 && m <= 0xD7:
			i += 2
			continue
		case m == 0xD9:
			if l.comps == nil {
				return l, errors.New("jpeg: missing SOF marker")
			}
			return l, nil
		case m == 0xDA && l.comps == nil:
			return l, errors.New("jpeg: missing SOF marker")
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			if l.scans > 0 {
				return l, nil
			}
			return l, errors.New("jpeg: segment is cut short")
		}
		if m == 0xDA {
			if len(l.scanAt) <= MaxJPEGScans {
				l.scanAt = append(l.scanAt, i)
			}
			l.scans++
			i = nextMarker(data, i+2+n)
			continue
		}
		if err := l.segment(m, data[i+4:i+2+n]); err != nil {
			return l, err
		}
		i += 2 + n
	}
	if l.comps == nil {
		return l, errors.New("jpeg: missing SOF marker")
	}
	return l, nil
}

// segment takes in what one marker segment before a scan says.
func (l *jpegMarkers) segment(m byte, seg []byte) error {
	switch {
	case m == 0xE0 && bytes.HasPrefix(seg, []byte("JFIF\x00")):
		l.jfif = true
	case m == 0xEE && len(seg) >= 12 && bytes.HasPrefix(seg, []byte("Adobe")):
		l.adobeRGB = seg[11] == 0
	case (m == 0xC0 || m == 0xC1 || m == 0xC2) && l.scans == 0:
		if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) {
			return errors.New("jpeg: SOF is cut short")
		}
		l.progressive = m == 0xC2
		l.comps = l.comps[:0]
		for k := range int(seg[5]) {
			c := seg[6+3*k : 9+3*k]
			l.comps = append(l.comps, jpegComp{id: c[0], h: max(1, int(c[1]>>4)), v: max(1, int(c[1]&0x0F))})
		}
	}
	return nil
}

// nextMarker returns the offset of the first marker at or after i in
// entropy-coded data: an 0xFF followed by a byte that is not 0x00 (a
// stuffed 0xFF), 0xFF (fill) or a restart marker. It returns len(data)
// when there is none.
func nextMarker(data []byte, i int) int {
	for i < len(data) {
		k := bytes.IndexByte(data[i:], 0xFF)
		if k < 0 {
			return len(data)
		}
		i += k
		j := i + 1
		for j < len(data) && data[j] == 0xFF {
			j++
		}
		if j == len(data) {
			return len(data)
		}
		if c := data[j]; c != 0x00 && (c < 0xD0 || c > 0xD7) {
			return j - 1
		}
		i = j + 1
	}
	return len(data)
}
