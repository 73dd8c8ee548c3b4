package fake

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

type pngKey struct{ w, h, i int }

// png returns a real PNG of w x h pixels, different for each index i.
// Rendered images are kept, so repeated requests cost nothing.
func (s *Server) png(w, h, i int) []byte {
	k := pngKey{w, h, i}
	s.mu.Lock()
	b, ok := s.pngs[k]
	s.mu.Unlock()
	if ok {
		return b
	}
	b = renderGradient(w, h, i)
	s.mu.Lock()
	s.pngs[k] = b
	s.mu.Unlock()
	return b
}

// renderGradient encodes a horizontal red-to-green gradient whose blue
// level depends on i, as an 8-bit palette PNG.
//
// It writes the PNG itself instead of using image/png: every row after the
// first is the same, so with the PNG "Up" filter those rows are all zeros
// and need no per-pixel work. image/png tries every filter on every row;
// the benchmarks in png_bench_test.go measure the difference, which is
// largest under -race, where every package's tests ask this fake for images.
func renderGradient(w, h, i int) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")

	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 8 // bit depth
	ihdr[9] = 3 // colour type: palette; compression, filter, interlace: 0
	writeChunk(&out, "IHDR", ihdr)

	pal := make([]byte, 256*3)
	blue := byte(i * 67 % 256)
	for k := range 256 {
		pal[3*k], pal[3*k+1], pal[3*k+2] = byte(k), byte(255-k), blue
	}
	writeChunk(&out, "PLTE", pal)

	// Each row is a filter-type byte then w palette indexes.
	raw := make([]byte, h*(w+1))
	for x := range w {
		raw[1+x] = byte(x * 255 / max(w-1, 1))
	}
	for y := 1; y < h; y++ {
		raw[y*(w+1)] = 2 // Up: each byte minus the one above, here 0
	}
	var z bytes.Buffer
	zw, err := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	if err == nil {
		_, err = zw.Write(raw)
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		panic("fake: compressing a PNG in memory: " + err.Error())
	}
	writeChunk(&out, "IDAT", z.Bytes())
	writeChunk(&out, "IEND", nil)
	return out.Bytes()
}

// writeChunk writes one PNG chunk: length, type, data, CRC of type and data.
func writeChunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	out.WriteString(typ)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
