package api

import (
	"bytes"
	"encoding/base64"
	"errors"
)

// b64Decoder decodes Base64 written to it piece by piece, so an image in
// a gateway's reply is decoded while the reply is read instead of being
// held as text first. It takes the standard and the URL-safe alphabet (not
// mixed), with or without padding, and skips white space (the line breaks
// of wrapping encoders). Out receives the bytes; max bounds them.
type b64Decoder struct {
	out     *bytes.Buffer
	max     int64 // most decoded bytes accepted; exceeding it is errB64TooLarge
	pending [4 << 10]byte
	n       int // bytes in pending: normalised standard-alphabet characters
	pad     int // '=' seen; only more '=' may follow
	std     bool
	url     bool
	err     error
}

var errB64TooLarge = errors.New("the decoded data is larger than allowed")

func newB64Decoder(out *bytes.Buffer, max int64) *b64Decoder {
	return &b64Decoder{out: out, max: max}
}

// Write takes the next characters of the text.
func (d *b64Decoder) Write(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	for _, c := range p {
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			continue
		case c == '=':
			d.pad++
			if d.pad > 2 {
				return 0, d.fail(errors.New("too much padding"))
			}
			continue
		case d.pad > 0:
			return 0, d.fail(errors.New("data after the padding"))
		case c == '-':
			d.url, c = true, '+'
		case c == '_':
			d.url, c = true, '/'
		case c == '+' || c == '/':
			d.std = true
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			return 0, d.fail(errors.New("illegal character " + quoteByte(c)))
		}
		if d.std && d.url {
			return 0, d.fail(errors.New("it mixes the standard and the URL-safe alphabet"))
		}
		d.pending[d.n] = c
		d.n++
		if d.n == len(d.pending) {
			if err := d.flush(d.n); err != nil {
				return 0, err
			}
		}
	}
	return len(p), nil
}

// flush decodes the first k pending characters (a multiple of 4).
func (d *b64Decoder) flush(k int) error {
	out := base64.RawStdEncoding.DecodedLen(k)
	if int64(d.out.Len()+out) > d.max {
		return d.fail(errB64TooLarge)
	}
	d.out.Grow(out)
	buf := d.out.AvailableBuffer()[:out]
	m, err := base64.RawStdEncoding.Strict().Decode(buf, d.pending[:k])
	if err != nil {
		return d.fail(err)
	}
	d.out.Write(buf[:m])
	d.n = copy(d.pending[:], d.pending[k:d.n])
	return nil
}

// Close decodes what is left and checks the end: the last group of
// characters must be complete (2 or 3 characters without padding, or
// padded to 4), and the unused bits zero.
func (d *b64Decoder) Close() error {
	if d.err != nil {
		return d.err
	}
	if d.pad > 0 && (d.n+d.pad)%4 != 0 {
		return d.fail(errors.New("wrong padding"))
	}
	if d.n%4 == 1 {
		return d.fail(errors.New("the data is cut short"))
	}
	if d.n == 0 && d.out.Len() == 0 {
		return d.fail(errors.New("the data is empty"))
	}
	return d.flush(d.n)
}

func (d *b64Decoder) fail(err error) error {
	if d.err == nil {
		d.err = err
	}
	return d.err
}

func quoteByte(c byte) string {
	const hex = "0123456789abcdef"
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	return "0x" + string([]byte{hex[c>>4], hex[c&15]})
}

// decodeBase64 decodes a whole Base64 text by b64Decoder's rules.
func decodeBase64(s string) ([]byte, error) {
	var out bytes.Buffer
	d := newB64Decoder(&out, int64(len(s)))
	if _, err := d.Write([]byte(s)); err != nil {
		return nil, err
	}
	if err := d.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
