package mediatest

import (
	"bytes"
	"encoding/binary"
)

// ScanBombJPEG writes a valid w×h grey progressive JPEG of scans scans (at
// least one): a DC scan, then scans-1 AC scans that each cover every block
// with a few end-of-band runs. Every scan is a few dozen bytes, but a
// decoder visits every block of the image in each, so a 7000x7000 file of
// 2,000 scans (about 150 KB) costs image/jpeg tens of seconds: the scan
// bomb libjpeg-turbo refuses past 1,000 scans.
func ScanBombJPEG(w, h, scans int) []byte {
	var b bytes.Buffer
	seg := func(marker byte, data []byte) {
		b.Write([]byte{0xFF, marker})
		binary.Write(&b, binary.BigEndian, uint16(len(data)+2))
		b.Write(data)
	}
	b.Write([]byte{0xFF, 0xD8})
	q := make([]byte, 65)
	for i := 1; i < 65; i++ {
		q[i] = 1
	}
	seg(0xDB, q)
	seg(0xC2, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})
	// DC table 0: one code of one bit for "no difference".
	dc := make([]byte, 1+16+1)
	dc[0], dc[1] = 0x00, 1
	seg(0xC4, dc)
	// AC table 0: fifteen 4-bit codes, for the end-of-band runs EOB0
	// (1 block) to EOB14 (16384 to 32767 blocks).
	ac := make([]byte, 1+16, 1+16+15)
	ac[0], ac[4] = 0x10, 15
	for r := range 15 {
		ac = append(ac, byte(r<<4))
	}
	seg(0xC4, ac)

	blocks := ((w + 7) / 8) * ((h + 7) / 8)
	seg(0xDA, []byte{1, 1, 0x00, 0, 0, 0}) // DC first scan, Ss=Se=0
	var bw bitWriter
	for range blocks {
		bw.put(0, 1)
	}
	b.Write(bw.flush())
	for range max(scans, 1) - 1 {
		seg(0xDA, []byte{1, 1, 0x00, 1, 63, 0}) // AC first scan of band 1..63
		for left := blocks; left > 0; {
			n := min(left, 32767)
			r := 0
			for 1<<(r+1) <= n {
				r++
			}
			bw.put(uint32(r), 4) // code r is symbol r<<4 (codes are assigned in order)
			bw.put(uint32(n-1<<r), r)
			left -= n
		}
		b.Write(bw.flush())
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// bitWriter packs entropy-coded bits most significant first, stuffing a
// zero byte after every 0xFF as JPEG requires.
type bitWriter struct {
	out  []byte
	acc  uint32
	nacc int
}

func (w *bitWriter) put(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		w.acc = w.acc<<1 | v>>i&1
		w.nacc++
		if w.nacc == 8 {
			w.emit()
		}
	}
}

func (w *bitWriter) emit() {
	c := byte(w.acc)
	w.out = append(w.out, c)
	if c == 0xFF {
		w.out = append(w.out, 0)
	}
	w.acc, w.nacc = 0, 0
}

// flush pads the last byte with one bits and returns the scan's bytes.
func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.put(1<<(8-w.nacc)-1, 8-w.nacc)
	}
	out := w.out
	w.out = nil
	return out
}
