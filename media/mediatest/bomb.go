package mediatest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// PNG colour types (the IHDR byte).
const (
	Gray      = 0
	RGB       = 2
	Paletted  = 3
	GrayAlpha = 4
	RGBA      = 6
)

// ZeroPNG is a valid PNG of w×h black (all-zero) pixels with the given bit
// depth and colour type, interlaced (Adam7) when asked. Its zlib stream is
// put together from one compressed megabyte of zeros repeated, so a
// 20000x20000 image (400 MB of pixels) is made in milliseconds, takes about
// 400 KB, and decodes for real. Paletted images get a one-colour palette;
// trns adds a tRNS chunk.
func ZeroPNG(t testing.TB, w, h int, depth, colorType byte, interlaced, trns bool) []byte {
	t.Helper()
	raw := RawPNGSize(w, h, depth, colorType, interlaced)
	return pngFile(w, h, depth, colorType, interlaced, trns, zlibZeros(t, raw))
}

// ClaimPNG is a tiny PNG whose header claims w×h pixels but whose image data
// stops after a few rows: what a hostile gateway sends to make a decoder
// allocate gigabytes (100000x100000 RGBA claims 40 GB in under 2 KB).
func ClaimPNG(t testing.TB, w, h int, depth, colorType byte) []byte {
	t.Helper()
	z := zlibZeros(t, int64(min(h, 4))*RawPNGSize(w, 1, depth, colorType, false))
	return pngFile(w, h, depth, colorType, false, false, z[:min(len(z), 1200)])
}

// RawPNGSize is the length of the filtered scanlines of a w×h PNG: the bytes
// its zlib stream inflates to.
func RawPNGSize(w, h int, depth, colorType byte, interlaced bool) int64 {
	channels := map[byte]int64{Gray: 1, RGB: 3, Paletted: 1, GrayAlpha: 2, RGBA: 4}[colorType]
	bits := channels * int64(depth)
	rows := func(pw, ph int64) int64 {
		if pw == 0 || ph == 0 {
			return 0
		}
		return ph * (1 + (pw*bits+7)/8)
	}
	W, H := int64(w), int64(h)
	if !interlaced {
		return rows(W, H)
	}
	// Adam7: x0, y0, dx, dy of each pass.
	passes := [7][4]int64{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}
	var n int64
	for _, p := range passes {
		n += rows((W-p[0]+p[2]-1)/p[2], (H-p[1]+p[3]-1)/p[3])
	}
	return n
}

func pngFile(w, h int, depth, colorType byte, interlaced, trns bool, idat []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colorType
	if interlaced {
		ihdr[12] = 1
	}
	chunk(&b, "IHDR", ihdr)
	if colorType == Paletted {
		chunk(&b, "PLTE", []byte{0, 0, 0})
	}
	if trns {
		switch colorType {
		case Paletted:
			chunk(&b, "tRNS", []byte{0})
		case RGB:
			chunk(&b, "tRNS", make([]byte, 6))
		default:
			chunk(&b, "tRNS", make([]byte, 2))
		}
	}
	chunk(&b, "IDAT", idat)
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, typ string, data []byte) {
	binary.Write(b, binary.BigEndian, uint32(len(data)))
	start := b.Len()
	b.WriteString(typ)
	b.Write(data)
	binary.Write(b, binary.BigEndian, crc32.ChecksumIEEE(b.Bytes()[start:]))
}

// zlibZeros is a zlib stream that inflates to n zero bytes. Each segment is
// a separately flushed deflate stream of zeros; a segment's back-references
// reach only zeros, so segments chain into one valid stream.
func zlibZeros(t testing.TB, n int64) []byte {
	t.Helper()
	const seg = 1 << 20
	segment := func(k int) []byte {
		var b bytes.Buffer
		fw, err := flate.NewWriter(&b, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(make([]byte, k)); err != nil {
			t.Fatal(err)
		}
		if err := fw.Flush(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	var out bytes.Buffer
	out.Write([]byte{0x78, 0x9C})
	if full := n / seg; full > 0 {
		s := segment(seg)
		out.Grow(int(full) * len(s))
		for range full {
			out.Write(s)
		}
	}
	if rem := int(n % seg); rem > 0 {
		out.Write(segment(rem))
	}
	out.Write([]byte{0x03, 0x00}) // a final, empty, fixed-Huffman block
	// Adler-32 of n zeros: the first sum stays 1, the second adds it n times.
	binary.Write(&out, binary.BigEndian, uint32(n%65521)<<16|1)
	return out.Bytes()
}
