package mediatest

import (
	"bytes"
	"encoding/binary"
)

// JPEGComp is one component of a FlatJPEG: its id and sampling factors.
type JPEGComp struct {
	ID   byte
	H, V int
}

// YCbCr420 is the component layout cameras and Go's encoder write.
func YCbCr420() []JPEGComp { return []JPEGComp{{1, 2, 2}, {2, 1, 1}, {3, 1, 1}} }

// YCbCr444 keeps full chroma.
func YCbCr444() []JPEGComp { return []JPEGComp{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}} }

// RGBComps is three full-size components named R, G and B.
func RGBComps() []JPEGComp { return []JPEGComp{{'R', 1, 1}, {'G', 1, 1}, {'B', 1, 1}} }

// GrayComp is a single grey component.
func GrayComp() []JPEGComp { return []JPEGComp{{1, 1, 1}} }

// CMYK is four full-size components (with an Adobe segment).
func CMYK() []JPEGComp { return []JPEGComp{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {4, 1, 1}} }

// FlatJPEGOptions shape a FlatJPEG.
type FlatJPEGOptions struct {
	Comps       []JPEGComp
	Progressive bool // SOF2 with a single DC scan, else baseline SOF0
	JFIF        bool // an APP0 JFIF segment
	Adobe       int  // an APP14 Adobe segment with this transform (0 RGB/CMYK, 1 YCbCr, 2 YCCK); -1 for none
}

// FlatJPEG writes a valid w×h JPEG in which every block is flat grey,
// without Go's encoder (which writes neither progressive nor CMYK files):
// one Huffman code of one bit stands for "no difference" (and for "end of
// block" in baseline files), so the entropy-coded data is a run of zero
// bits and a 3000x2000 progressive file takes about 20 KB. It lets tests
// decode every layout image/jpeg knows and measure what that costs.
func FlatJPEG(w, h int, o FlatJPEGOptions) []byte {
	var b bytes.Buffer
	seg := func(marker byte, data []byte) {
		b.Write([]byte{0xFF, marker})
		binary.Write(&b, binary.BigEndian, uint16(len(data)+2))
		b.Write(data)
	}
	b.Write([]byte{0xFF, 0xD8})
	if o.JFIF {
		seg(0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))
	}
	if o.Adobe >= 0 {
		seg(0xEE, append([]byte("Adobe\x00\x64\x00\x00\x00\x00"), byte(o.Adobe)))
	}
	q := make([]byte, 65)
	for i := 1; i < 65; i++ {
		q[i] = 1
	}
	seg(0xDB, q)
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(o.Comps))}
	hmax, vmax := 1, 1
	for _, c := range o.Comps {
		sof = append(sof, c.ID, byte(c.H<<4|c.V), 0)
		hmax, vmax = max(hmax, c.H), max(vmax, c.V)
	}
	marker := byte(0xC0)
	if o.Progressive {
		marker = 0xC2
	}
	seg(marker, sof)
	oneCode := func(class byte) []byte { // one code of length 1 for symbol 0
		t := make([]byte, 1+16+1)
		t[0], t[1] = class, 1
		return t
	}
	seg(0xC4, oneCode(0x00))
	bitsPerBlock := 1
	if !o.Progressive {
		seg(0xC4, oneCode(0x10))
		bitsPerBlock = 2 // DC "no difference", AC "end of block"
	}
	sos := []byte{byte(len(o.Comps))}
	for _, c := range o.Comps {
		sos = append(sos, c.ID, 0x00)
	}
	if o.Progressive {
		sos = append(sos, 0, 0, 0)
	} else {
		sos = append(sos, 0, 63, 0)
	}
	seg(0xDA, sos)
	var blocks int
	if len(o.Comps) == 1 {
		blocks = ((w + 7) / 8) * ((h + 7) / 8)
	} else {
		mcus := ((w + 8*hmax - 1) / (8 * hmax)) * ((h + 8*vmax - 1) / (8 * vmax))
		for _, c := range o.Comps {
			blocks += mcus * c.H * c.V
		}
	}
	bits := blocks * bitsPerBlock
	b.Write(make([]byte, bits/8))
	if r := bits % 8; r > 0 {
		b.WriteByte(0xFF >> r) // pad the last byte with one bits
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}
