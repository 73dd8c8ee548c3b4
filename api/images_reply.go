package api

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"parley/internal/bytesize"
)

// ImageReply is a generation or edit reply, its images decoded while it was
// read: the Base64 text of an image never exists in memory as a whole, so a
// reply costs about the size of the images it carries.
type ImageReply struct {
	Created int64
	// Data holds at most the number of images asked for, in the gateway's
	// order.
	Data []GeneratedImage
	// Dropped counts the images the gateway sent beyond the number asked
	// for. They were read past, never decoded or kept.
	Dropped int
}

// GeneratedImage is one image of a reply: the file's bytes (from b64_json,
// or from a data: URI in url), or the http(s) link to download it from.
type GeneratedImage struct {
	File          []byte
	URL           string // set when the gateway sent a link (File is nil then)
	RevisedPrompt string

	fromB64 bool // File came from b64_json, which wins over a data: URI in url
}

// Limits of an image reply. maxImageReply bounds the whole body: 128 MiB
// holds ten of gpt-image-1's largest PNGs several times over. Images are
// decoded as they arrive, so reading a reply holds the images it carries
// (at most 96 MiB) and not their Base64 text; without a Content-Length the
// buffers grow by doubling and briefly hold up to half as much again. Text
// fields are small in every real reply.
const (
	maxImageReply    = 128 << 20
	maxReplyURL      = 64 << 10 // an http(s) image link
	maxRevisedPrompt = 64 << 10 // longer revised prompts are cut
	maxReplyKey      = 64       // longer keys are none parley reads
	maxReplyNumber   = 64
	maxReplyDepth    = 64
	maxReplyHead     = 1 << 20 // kept to read an error object sent with status 200
	maxDataURIMeta   = 256     // "data:image/png;base64"
)

// errReplyTooLarge: the body went past maxImageReply.
var errReplyTooLarge = errors.New("the image reply is too large")

// replySyntaxError is a reply that is not the JSON it claims to be.
type replySyntaxError struct{ msg string }

func (e *replySyntaxError) Error() string { return e.msg }

// replyReadError is the connection failing while the reply was read.
type replyReadError struct{ err error }

func (e *replyReadError) Error() string { return e.err.Error() }
func (e *replyReadError) Unwrap() error { return e.err }

// readImageReply reads {"created":…,"data":[{"b64_json"|"url",
// "revised_prompt"},…]} from r as a stream, keeping the first want images
// (at least one) and reading past the rest. At most limit bytes are read.
// size is the body's length when known (Content-Length), else -1: an image
// is then decoded into one buffer sized for what is left of the body,
// instead of one that doubles as it fills and briefly holds three times
// the image.
// Reply.Data is nil when the reply has no data array; head then holds the
// body's first maxReplyHead bytes, in which an error object may be. An entry
// whose Base64 or data URI is broken fails the whole reply, naming the
// image by its position among all the gateway sent.
func readImageReply(r io.Reader, want int, limit, size int64) (reply *ImageReply, head []byte, err error) {
	hw := &headWriter{}
	lr := &replyLimit{r: r, left: limit + 1}
	p := &replyParser{
		r:     bufio.NewReaderSize(io.TeeReader(lr, hw), 64<<10),
		lr:    lr,
		head:  hw,
		want:  max(want, 1),
		limit: limit,
		size:  size,
	}
	if err := p.document(); err != nil {
		return nil, nil, err
	}
	if p.bad != nil {
		return nil, nil, fmt.Errorf("image %d of %d from the gateway %w; nothing was saved", p.badIndex+1, p.total, p.bad)
	}
	if !p.sawData {
		return &p.reply, hw.buf, nil
	}
	return &p.reply, nil, nil
}

// replyLimit reads at most left-1 bytes and fails when there is more.
type replyLimit struct {
	r    io.Reader
	left int64
}

func (l *replyLimit) Read(b []byte) (int, error) {
	if l.left <= 0 {
		return 0, errReplyTooLarge
	}
	n, err := l.r.Read(b[:min(int64(len(b)), l.left)])
	l.left -= int64(n)
	if l.left <= 0 {
		return n, errReplyTooLarge
	}
	return n, err
}

// headWriter keeps the first maxReplyHead bytes written to it, until the
// reply shows its data array (then no error object is needed from it).
type headWriter struct {
	buf  []byte
	done bool
}

func (h *headWriter) Write(b []byte) (int, error) {
	if room := maxReplyHead - len(h.buf); room > 0 && !h.done {
		h.buf = append(h.buf, b[:min(len(b), room)]...)
	}
	return len(b), nil
}

// replyParser is a streaming JSON reader for exactly the image reply's
// shape; everything else in the document is read past without being kept.
type replyParser struct {
	r       *bufio.Reader
	lr      *replyLimit
	head    *headWriter
	want    int
	limit   int64
	size    int64 // Content-Length, or -1
	reply   ImageReply
	sawData bool
	total   int // entries of data seen
	// The first unusable entry: later ones are read past.
	bad      error
	badIndex int
}

func syntaxf(format string, args ...any) error {
	return &replySyntaxError{msg: fmt.Sprintf(format, args...)}
}

// readErr classifies an error of the underlying reader.
func readErr(err error) error {
	switch {
	case errors.Is(err, errReplyTooLarge):
		return errReplyTooLarge
	case err == io.EOF:
		return syntaxf("the reply ends in the middle of the JSON")
	}
	return &replyReadError{err: err}
}

func (p *replyParser) byte() (byte, error) {
	c, err := p.r.ReadByte()
	if err != nil {
		return 0, readErr(err)
	}
	return c, nil
}

// next returns the next byte that is not JSON white space.
func (p *replyParser) next() (byte, error) {
	for {
		c, err := p.byte()
		if err != nil || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return c, err
		}
	}
}

// document reads the top-level value and checks nothing but white space
// follows it.
func (p *replyParser) document() error {
	c, err := p.next()
	if err != nil {
		return err
	}
	if c == '{' {
		err = p.object(func(key string) error {
			switch key {
			case "data":
				return p.data()
			case "created":
				return p.created()
			}
			return p.skipNext(1)
		})
	} else {
		err = p.skip(c, 0)
	}
	if err != nil {
		return err
	}
	for {
		c, err := p.r.ReadByte()
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return readErr(err)
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			return syntaxf("unexpected %s after the JSON value", quoteByte(c))
		}
	}
}

// object reads the members of an object whose '{' was read, calling member
// for each key with the reader before the value's first byte.
func (p *replyParser) object(member func(key string) error) error {
	c, err := p.next()
	if err != nil || c == '}' {
		return err
	}
	for {
		if c != '"' {
			return syntaxf("unexpected %s where an object key should be", quoteByte(c))
		}
		var key []byte
		long := false
		err := p.str(func(b []byte) {
			if len(key)+len(b) > maxReplyKey {
				long = true
				return
			}
			key = append(key, b...)
		})
		if err != nil {
			return err
		}
		if c, err = p.next(); err != nil {
			return err
		} else if c != ':' {
			return syntaxf("unexpected %s after an object key", quoteByte(c))
		}
		if long {
			key = nil
		}
		if err := member(string(key)); err != nil {
			return err
		}
		if c, err = p.next(); err != nil {
			return err
		}
		switch c {
		case '}':
			return nil
		case ',':
			if c, err = p.next(); err != nil {
				return err
			}
		default:
			return syntaxf("unexpected %s after an object member", quoteByte(c))
		}
	}
}

// data reads the value of "data": null, or an array of image objects.
func (p *replyParser) data() error {
	c, err := p.next()
	if err != nil {
		return err
	}
	switch c {
	case 'n':
		return p.literal("ull")
	case '[':
	default:
		return syntaxf("data is not an array (it starts with %s)", quoteByte(c))
	}
	p.sawData = true
	p.head.done, p.head.buf = true, nil
	if c, err = p.next(); err != nil || c == ']' {
		return err
	}
	for {
		i := p.total
		p.total++
		switch {
		case i >= p.want:
			p.reply.Dropped++
			err = p.skip(c, 1)
		case c == '{':
			err = p.entry(i)
		case c == 'n':
			p.reply.Data = append(p.reply.Data, GeneratedImage{})
			err = p.literal("ull")
		default:
			err = syntaxf("an entry of data is not an object (it starts with %s)", quoteByte(c))
		}
		if err != nil {
			return err
		}
		if c, err = p.next(); err != nil {
			return err
		}
		switch c {
		case ']':
			return nil
		case ',':
			if c, err = p.next(); err != nil {
				return err
			}
		default:
			return syntaxf("unexpected %s after an entry of data", quoteByte(c))
		}
	}
}

// imageBuffer is where an image's Base64 is decoded to: sized for the rest
// of the body when its length is known.
func (p *replyParser) imageBuffer() *bytes.Buffer {
	var b bytes.Buffer
	if p.size > 0 {
		read := p.limit + 1 - p.lr.left - int64(p.r.Buffered())
		if rest := min(p.size, p.limit) - read; rest > 0 {
			b.Grow(int(rest / 4 * 3))
		}
	}
	return &b
}

// fitted returns b's bytes in a slice of their own size when the buffer
// is much larger (sized for a body that held more images), so the rest of
// it can be freed.
func fitted(b *bytes.Buffer) []byte {
	data := b.Bytes()
	if cap(data)-len(data) > len(data)/8+64<<10 {
		return append([]byte(nil), data...)
	}
	return data
}

// fail records what is wrong with entry i; the reply fails once it is read.
func (p *replyParser) fail(i int, err error) {
	if p.bad == nil {
		p.bad, p.badIndex = err, i
	}
}

// entry reads one image object whose '{' was read.
func (p *replyParser) entry(i int) error {
	var img GeneratedImage
	err := p.object(func(key string) error {
		c, err := p.next()
		if err != nil {
			return err
		}
		if c == 'n' { // null: as if the member were missing
			return p.literal("ull")
		}
		if c != '"' || (key != "b64_json" && key != "url" && key != "revised_prompt") {
			return p.skip(c, 2)
		}
		switch key {
		case "b64_json":
			out := p.imageBuffer()
			d := newB64Decoder(out, p.limit)
			chars := 0
			if err := p.str(func(b []byte) { chars += len(b); d.Write(b) }); err != nil {
				return err
			}
			if chars == 0 { // "": as if missing
				return nil
			}
			if err := d.Close(); err != nil {
				p.fail(i, fmt.Errorf("is not valid Base64 (%w)", err))
				return nil
			}
			img.File, img.fromB64 = fitted(out), true
		case "url":
			return p.url(i, &img)
		case "revised_prompt":
			var s []byte
			if err := p.str(func(b []byte) {
				s = append(s, b[:min(len(b), maxRevisedPrompt-len(s))]...)
			}); err != nil {
				return err
			}
			img.RevisedPrompt = string(s)
		}
		return nil
	})
	p.reply.Data = append(p.reply.Data, img)
	return err
}

// url reads the value of "url": an http(s) link is kept as text, a data:
// URI is decoded as it is read.
func (p *replyParser) url(i int, img *GeneratedImage) error {
	var (
		text   []byte // the link, or the data URI up to its comma
		inData bool   // past "data:…,"
		long   bool
		out    = p.imageBuffer()
		d      = newB64Decoder(out, p.limit)
	)
	err := p.str(func(b []byte) {
		if long {
			return
		}
		for len(b) > 0 && !inData {
			if bytes.HasPrefix(text, []byte("data:")) {
				if k := bytes.IndexByte(b, ','); k >= 0 {
					if len(text)+k > maxDataURIMeta {
						long = true
						return
					}
					text, b, inData = append(text, b[:k]...), b[k+1:], true
					break
				}
			}
			n := len(b)
			if len(text) < 5 {
				n = min(n, 5-len(text)) // decide on "data:" before taking more
			}
			limit := maxReplyURL
			if bytes.HasPrefix(text, []byte("data:")) {
				limit = maxDataURIMeta
			}
			if len(text)+n > limit {
				long = true
				return
			}
			text, b = append(text, b[:n]...), b[n:]
		}
		if inData {
			d.Write(b)
		}
	})
	switch {
	case err != nil:
		return err
	case long && bytes.HasPrefix(text, []byte("data:")):
		p.fail(i, errors.New("is a data URI without a comma before its data"))
	case long:
		p.fail(i, fmt.Errorf("came as a link longer than %s, which parley does not fetch", bytesize.Format(maxReplyURL)))
	case inData && !bytes.HasSuffix(text, []byte(";base64")):
		p.fail(i, errors.New("is a data URI that is not Base64"))
	case inData:
		if err := d.Close(); err != nil {
			p.fail(i, fmt.Errorf("is a data URI with invalid Base64 (%w)", err))
		} else if !img.fromB64 {
			img.File = fitted(out)
		}
	case bytes.HasPrefix(text, []byte("data:")):
		p.fail(i, errors.New("is a data URI without a comma before its data"))
	default:
		img.URL = string(text)
	}
	return nil
}

// created reads "created", a Unix time; a value that is no integer is
// ignored, since nothing depends on it.
func (p *replyParser) created() error {
	c, err := p.next()
	if err != nil {
		return err
	}
	if c != '-' && (c < '0' || c > '9') {
		return p.skip(c, 1)
	}
	num, err := p.number(c)
	if err != nil {
		return err
	}
	if n, err := strconv.ParseInt(num, 10, 64); err == nil {
		p.reply.Created = n
	}
	return nil
}

// skipNext reads past the next value.
func (p *replyParser) skipNext(depth int) error {
	c, err := p.next()
	if err != nil {
		return err
	}
	return p.skip(c, depth)
}

// skip reads past a value whose first byte c was read, keeping nothing.
func (p *replyParser) skip(c byte, depth int) error {
	if depth > maxReplyDepth {
		return syntaxf("the JSON is nested more than %d levels deep", maxReplyDepth)
	}
	switch {
	case c == '{':
		return p.object(func(string) error { return p.skipNext(depth + 1) })
	case c == '[':
		c, err := p.next()
		if err != nil || c == ']' {
			return err
		}
		for {
			if err := p.skip(c, depth+1); err != nil {
				return err
			}
			if c, err = p.next(); err != nil {
				return err
			}
			switch c {
			case ']':
				return nil
			case ',':
				if c, err = p.next(); err != nil {
					return err
				}
			default:
				return syntaxf("unexpected %s in an array", quoteByte(c))
			}
		}
	case c == '"':
		return p.str(func([]byte) {})
	case c == 't':
		return p.literal("rue")
	case c == 'f':
		return p.literal("alse")
	case c == 'n':
		return p.literal("ull")
	case c == '-' || c >= '0' && c <= '9':
		_, err := p.number(c)
		return err
	}
	return syntaxf("unexpected %s where a JSON value should start", quoteByte(c))
}

func (p *replyParser) literal(rest string) error {
	for i := range len(rest) {
		c, err := p.byte()
		if err != nil {
			return err
		}
		if c != rest[i] {
			return syntaxf("unexpected %s in a literal", quoteByte(c))
		}
	}
	return nil
}

// number reads a number whose first byte c was read.
func (p *replyParser) number(c byte) (string, error) {
	num := []byte{c}
	for {
		b, err := p.r.Peek(1)
		if err == io.EOF {
			return string(num), nil
		}
		if err != nil {
			return "", readErr(err)
		}
		if d := b[0]; !(d >= '0' && d <= '9' || d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-') {
			return string(num), nil
		}
		if len(num) >= maxReplyNumber {
			return "", syntaxf("a number longer than %d characters", maxReplyNumber)
		}
		num = append(num, b[0])
		p.r.Discard(1)
	}
}

// str reads a string whose opening quote was read, handing its unescaped
// bytes to sink in pieces (which sink must not keep). Runs without escapes
// are passed straight from the read buffer.
func (p *replyParser) str(sink func([]byte)) error {
	for {
		if _, err := p.r.Peek(1); err != nil {
			return readErr(err)
		}
		buf, _ := p.r.Peek(p.r.Buffered())
		n := 0
		for n < len(buf) && buf[n] != '"' && buf[n] != '\\' && buf[n] >= 0x20 {
			n++
		}
		if n > 0 {
			sink(buf[:n])
			p.r.Discard(n)
			continue
		}
		c, _ := p.r.ReadByte()
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return syntaxf("a control character (%s) inside a string", quoteByte(c))
		}
		e, err := p.byte()
		if err != nil {
			return err
		}
		switch e {
		case '"', '\\', '/':
			sink([]byte{e})
		case 'b':
			sink([]byte{'\b'})
		case 'f':
			sink([]byte{'\f'})
		case 'n':
			sink([]byte{'\n'})
		case 'r':
			sink([]byte{'\r'})
		case 't':
			sink([]byte{'\t'})
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return err
			}
			if utf16.IsSurrogate(r) {
				r = utf16.DecodeRune(r, p.lowSurrogate(r))
			}
			sink(utf8.AppendRune(nil, r))
		default:
			return syntaxf("a bad escape \\%s inside a string", string(rune(e)))
		}
	}
}

// lowSurrogate reads the \uXXXX escape after the surrogate r when r is a
// high surrogate and the escape is a low one, and returns it; otherwise it
// reads nothing and returns utf8.RuneError, so a lone surrogate becomes
// U+FFFD and the character after it is kept (as encoding/json does).
func (p *replyParser) lowSurrogate(r rune) rune {
	if r >= 0xdc00 {
		return utf8.RuneError
	}
	b, _ := p.r.Peek(6)
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return utf8.RuneError
	}
	v, err := strconv.ParseUint(string(b[2:]), 16, 16)
	if err != nil || v < 0xdc00 || v > 0xdfff {
		return utf8.RuneError
	}
	p.r.Discard(6)
	return rune(v)
}

func (p *replyParser) hex4() (rune, error) {
	var r rune
	for range 4 {
		c, err := p.byte()
		if err != nil {
			return 0, err
		}
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, syntaxf("a bad \\u escape inside a string")
		}
		r = r<<4 | rune(v)
	}
	return r, nil
}
