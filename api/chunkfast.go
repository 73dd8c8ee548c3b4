package api

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// chunkFast decodes the common shape of a stream chunk (id, object,
// model, choices with an index, a delta of text and a finish reason,
// unknown fields with plain values) without reflection: a chunk of text
// costs a fifth of what encoding/json costs it, and 3 allocations, not 19,
// on every one of the 200 events a second a gateway sends (BENCHMARKS.md,
// "One wake-up a frame").
//
// It gives exactly what json.Unmarshal into a fresh ChatChunk gives, or
// reports false and leaves the chunk to encoding/json: for anything it
// does not handle the same way (escaped or non-ASCII keys, keys that
// match a field only when case is ignored, repeated fields, an index that
// is not a plain integer, a usage, tool calls, images, an error field or
// object, nested values in unknown fields, surrogate escapes, invalid
// UTF-8) and for any input encoding/json would reject.
// TestChunkFastMatchesEncodingJSON and FuzzChunkFast hold it to that.
type chunkFast struct {
	// The id, object and model of the previous chunk: they repeat on
	// every chunk of a stream, so they are kept, not allocated again.
	id, object, model string
	// scratch is where strings with escapes are unescaped, kept from one
	// chunk to the next.
	scratch []byte
}

// chunkParser walks one JSON text.
type chunkParser struct {
	b []byte
	i int
	// scratch holds a string being unescaped.
	scratch []byte
}

func (f *chunkFast) decode(data []byte) (ChatChunk, bool) {
	p := chunkParser{b: data, scratch: f.scratch[:0]}
	defer func() { f.scratch = keptScratch(p.scratch) }()
	var c ChatChunk
	if !p.chunk(f, &c) || c.Object == "error" {
		return ChatChunk{}, false
	}
	p.ws()
	return c, p.i == len(p.b)
}

func (p *chunkParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips whitespace and reports whether c comes next, consuming it.
func (p *chunkParser) next(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// object calls field for each key of an object; field parses the value.
func (p *chunkParser) object(field func(key []byte) bool) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	for {
		if !p.next('"') {
			return false
		}
		start := p.i
		for p.i < len(p.b) && p.b[p.i] != '"' {
			// encoding/json unescapes a key and folds its case (Unicode
			// included) before it matches it to a field.
			if c := p.b[p.i]; c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
				return false
			}
			p.i++
		}
		if p.i == len(p.b) {
			return false
		}
		key := p.b[start:p.i]
		p.i++
		if !p.next(':') || !field(key) {
			return false
		}
		if p.next(',') {
			continue
		}
		return p.next('}')
	}
}

// once reports whether a field is seen for the first time: encoding/json
// lets a repeated field overwrite or merge into the first.
func once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// foreign reports a key that is none of names but that encoding/json's
// case-insensitive matching would take for one of them.
func foreign(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

func (p *chunkParser) chunk(f *chunkFast, c *ChatChunk) bool {
	var seen uint8
	return p.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return once(&seen, 1) && p.keptString(&c.ID, &f.id)
		case "object":
			return once(&seen, 2) && p.keptString(&c.Object, &f.object)
		case "model":
			return once(&seen, 4) && p.keptString(&c.Model, &f.model)
		case "choices":
			return once(&seen, 8) && p.choices(&c.Choices)
		}
		return !foreign(key, "id", "object", "model", "choices", "usage", "error") && p.scalar()
	})
}

func (p *chunkParser) choices(out *[]ChunkChoice) bool {
	if p.null() {
		return true
	}
	if !p.next('[') {
		return false
	}
	list := []ChunkChoice{}
	if !p.next(']') {
		for {
			var ch ChunkChoice
			if !p.choice(&ch) {
				return false
			}
			list = append(list, ch)
			if p.next(',') {
				continue
			}
			if !p.next(']') {
				return false
			}
			break
		}
	}
	*out = list
	return true
}

func (p *chunkParser) choice(ch *ChunkChoice) bool {
	var seen uint8
	return p.object(func(key []byte) bool {
		switch string(key) {
		case "index":
			return once(&seen, 1) && p.index(&ch.Index)
		case "delta":
			return once(&seen, 2) && p.delta(&ch.Delta)
		case "finish_reason":
			if !once(&seen, 4) {
				return false
			}
			if p.null() {
				return true
			}
			var s string
			if !p.string(&s) {
				return false
			}
			ch.FinishReason = &s
			return true
		}
		return !foreign(key, "index", "delta", "finish_reason") && p.scalar()
	})
}

func (p *chunkParser) delta(out **Delta) bool {
	if p.null() {
		return true
	}
	d := &Delta{}
	var seen uint8
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "role":
			return once(&seen, 1) && p.stringOrNull(&d.Role)
		case "content":
			return once(&seen, 2) && p.stringOrNull(&d.Content)
		case "reasoning_content":
			return once(&seen, 4) && p.stringOrNull(&d.ReasoningContent)
		case "reasoning":
			return once(&seen, 8) && p.stringOrNull(&d.Reasoning)
		}
		return !foreign(key, "role", "content", "reasoning_content", "reasoning", "tool_calls", "images") && p.scalar()
	})
	*out = d
	return ok
}

// index reads a choice's index: a plain integer that fits an int on any
// platform, or null (which leaves it 0).
func (p *chunkParser) index(out *int) bool {
	if p.null() {
		return true
	}
	neg := p.i < len(p.b) && p.b[p.i] == '-'
	if neg {
		p.i++
	}
	start, n := p.i, 0
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		n = n*10 + int(p.b[p.i]-'0')
		p.i++
	}
	digits := p.i - start
	if digits == 0 || digits > 9 || (digits > 1 && p.b[start] == '0') {
		return false
	}
	if neg {
		n = -n
	}
	*out = n
	return true
}

// null consumes a null.
func (p *chunkParser) null() bool {
	p.ws()
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return true
	}
	return false
}

func (p *chunkParser) stringOrNull(out *string) bool {
	return p.null() || p.string(out)
}

// keptString reads a string or null into out, taking the string kept from
// the previous chunk when it is the same.
func (p *chunkParser) keptString(out, kept *string) bool {
	if p.null() {
		return true
	}
	raw, ok := p.rawString()
	if !ok {
		return false
	}
	if raw == nil {
		*out = string(p.scratch)
	} else if string(raw) == *kept {
		*out = *kept
	} else {
		*out = string(raw)
	}
	// A long value is not kept for the next chunk: one chunk with a
	// 16 MiB model name must not hold it for the rest of the stream.
	*kept = ""
	if len(*out) <= maxKeptString {
		*kept = *out
	}
	return true
}

// maxKeptString bounds the id, object and model kept between chunks
// (real ones are a few dozen bytes).
const maxKeptString = 256

// string reads a JSON string into out.
func (p *chunkParser) string(out *string) bool {
	raw, ok := p.rawString()
	if !ok {
		return false
	}
	if raw == nil {
		*out = string(p.scratch)
	} else {
		*out = string(raw)
	}
	return true
}

// rawString reads a JSON string: its bytes as they stand when it has no
// escapes, or nil with the unescaped bytes in p.scratch. It fails on what
// encoding/json would reject (control characters, bad escapes) and on
// what it would change (invalid UTF-8, surrogate escapes).
func (p *chunkParser) rawString() ([]byte, bool) {
	if !p.next('"') {
		return nil, false
	}
	start := p.i
	ascii := true
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			raw := p.b[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(raw) {
				return nil, false
			}
			return raw, true
		case c == '\\':
			p.scratch = append(p.scratch[:0], p.b[start:p.i]...)
			if !ascii && !utf8.Valid(p.scratch) {
				return nil, false
			}
			return nil, p.escaped()
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return nil, false
}

// escaped reads the rest of a string that has escapes into p.scratch.
func (p *chunkParser) escaped() bool {
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			if !utf8.Valid(p.b[start:p.i]) {
				return false
			}
			p.scratch = append(p.scratch, p.b[start:p.i]...)
			p.i++
			return true
		case c < 0x20:
			return false
		case c != '\\':
			p.i++
			continue
		}
		if !utf8.Valid(p.b[start:p.i]) {
			return false
		}
		p.scratch = append(p.scratch, p.b[start:p.i]...)
		if p.i+1 >= len(p.b) {
			return false
		}
		switch e := p.b[p.i+1]; e {
		case '"', '\\', '/':
			p.scratch = append(p.scratch, e)
		case 'b':
			p.scratch = append(p.scratch, '\b')
		case 'f':
			p.scratch = append(p.scratch, '\f')
		case 'n':
			p.scratch = append(p.scratch, '\n')
		case 'r':
			p.scratch = append(p.scratch, '\r')
		case 't':
			p.scratch = append(p.scratch, '\t')
		case 'u':
			r, ok := hex4(p.b[p.i+2:])
			if !ok || utf16.IsSurrogate(r) {
				return false
			}
			p.scratch = utf8.AppendRune(p.scratch, r)
			p.i += 4
		default:
			return false
		}
		p.i += 2
		start = p.i
	}
	return false
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// scalar skips the value of an unknown field: a string, a number, true,
// false or null. An object or an array is left to encoding/json.
func (p *chunkParser) scalar() bool {
	p.ws()
	if p.i >= len(p.b) {
		return false
	}
	switch p.b[p.i] {
	case '"':
		_, ok := p.rawString()
		return ok
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	}
	return p.number()
}

func (p *chunkParser) literal(s string) bool {
	if !bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		return false
	}
	p.i += len(s)
	return true
}

// number skips a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *chunkParser) number() bool {
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.digits() == 0:
		return false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return false
		}
	}
	return true
}

// digits skips decimal digits and says how many there were.
func (p *chunkParser) digits() int {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// maxKeptScratch bounds the scratch kept between chunks: one chunk with a
// large escaped string (up to the 16 MiB event cap) must not hold that
// much for the rest of the stream.
const maxKeptScratch = 64 << 10

func keptScratch(b []byte) []byte {
	if cap(b) > maxKeptScratch {
		return nil
	}
	return b
}
