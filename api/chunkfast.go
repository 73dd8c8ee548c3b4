package api

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// fastChunk decodes the common chunk shape without reflection and with
// few allocations: it reuses the choice, delta, usage and finish-reason
// storage of the previous chunk and keeps the id, object and model strings
// when they repeat (they do on every chunk of a stream). So a content chunk
// costs one allocation, its text.
//
// It gives exactly what json.Unmarshal into a fresh ChatChunk gives, or
// reports false and leaves the chunk to encoding/json: for anything it does
// not handle the same way (escaped keys, keys that match a field only when
// case is ignored, duplicate fields, numbers that are not plain integers,
// non-object choices, error shapes) and for any input encoding/json would
// reject. FuzzChunkDecode holds it to that.
type fastChunk struct {
	id, object, model string
	choices           []ChunkChoice
	deltas            []Delta
	finishes          []string
	slots             []choiceSlots
	usage             Usage
}

// choiceSlots says where a choice's delta and finish reason are stored
// (-1: nil) while its list is parsed; the pointers are set afterwards, since
// appending may move the storage.
type choiceSlots struct{ delta, finish int }

// chunkParser walks one JSON text.
type chunkParser struct {
	b []byte
	i int
	f *fastChunk
}

func (f *fastChunk) decode(data []byte, c *ChatChunk) bool {
	p := chunkParser{b: data, f: f}
	if !p.chunk(c) {
		return false
	}
	p.ws()
	return p.i == len(p.b)
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

func (p *chunkParser) peek() byte {
	p.ws()
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// object calls field for each key of an object. Keys with escapes are not
// handled (encoding/json would unescape them before matching).
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

// seen tracks fields already set; a repeated field bails out, since
// encoding/json merges a repeated object or array into the first one.
type seen uint8

func (s *seen) first(bit seen) bool {
	if *s&bit != 0 {
		return false
	}
	*s |= bit
	return true
}

// foreign reports a key that is not one of names but would match one of
// them in encoding/json's case-insensitive matching.
func foreign(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

func (p *chunkParser) chunk(c *ChatChunk) bool {
	*c = ChatChunk{}
	var done seen
	return p.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return done.first(1) && p.str(&c.ID, &p.f.id)
		case "object":
			// vLLM's error shape is {"object":"error",...}.
			return done.first(2) && p.str(&c.Object, &p.f.object) && c.Object != "error"
		case "model":
			return done.first(4) && p.str(&c.Model, &p.f.model)
		case "choices":
			return done.first(8) && p.choiceList(c)
		case "usage":
			return done.first(16) && p.usage(c)
		}
		// "error" marks an error event; wireChunk decodes it.
		if foreign(key, "id", "object", "model", "choices", "usage", "error") {
			return false
		}
		return p.skip(0)
	})
}

func (p *chunkParser) choiceList(c *ChatChunk) bool {
	if p.null() {
		c.Choices = nil
		return true
	}
	if !p.next('[') {
		return false
	}
	f := p.f
	if f.choices == nil {
		f.choices = make([]ChunkChoice, 0, 1)
	}
	f.choices = f.choices[:0]
	f.deltas = f.deltas[:0]
	f.finishes = f.finishes[:0]
	f.slots = f.slots[:0]
	if !p.next(']') {
		for {
			if p.peek() != '{' {
				return false
			}
			f.choices = append(f.choices, ChunkChoice{})
			f.slots = append(f.slots, choiceSlots{-1, -1})
			if !p.choice(len(f.choices) - 1) {
				return false
			}
			if p.next(',') {
				continue
			}
			if !p.next(']') {
				return false
			}
			break
		}
	}
	for i, sl := range f.slots {
		ch := &f.choices[i]
		if sl.delta >= 0 {
			ch.Delta = &f.deltas[sl.delta]
		}
		if sl.finish >= 0 {
			ch.FinishReason = &f.finishes[sl.finish]
		}
	}
	c.Choices = f.choices
	return true
}

func (p *chunkParser) choice(idx int) bool {
	f := p.f
	var done seen
	return p.object(func(key []byte) bool {
		ch := &f.choices[idx]
		switch string(key) {
		case "index":
			return done.first(1) && p.integer(&ch.Index)
		case "delta":
			if !done.first(2) {
				return false
			}
			if p.null() {
				return true
			}
			f.deltas = append(f.deltas, Delta{})
			n := len(f.deltas) - 1
			f.slots[idx].delta = n
			return p.delta(&f.deltas[n])
		case "finish_reason":
			if !done.first(4) {
				return false
			}
			if p.null() {
				return true
			}
			var s string
			if !p.str(&s, nil) {
				return false
			}
			f.finishes = append(f.finishes, s)
			f.slots[idx].finish = len(f.finishes) - 1
			return true
		}
		if foreign(key, "index", "delta", "finish_reason") {
			return false
		}
		return p.skip(0)
	})
}

func (p *chunkParser) delta(d *Delta) bool {
	var done seen
	return p.object(func(key []byte) bool {
		switch string(key) {
		case "role":
			return done.first(1) && p.str(&d.Role, nil)
		case "content":
			return done.first(2) && p.str(&d.Content, nil)
		}
		if foreign(key, "role", "content") {
			return false
		}
		return p.skip(0)
	})
}

func (p *chunkParser) usage(c *ChatChunk) bool {
	if p.null() {
		c.Usage = nil
		return true
	}
	u := &p.f.usage
	*u = Usage{}
	var done seen
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "prompt_tokens":
			return done.first(1) && p.integer(&u.PromptTokens)
		case "completion_tokens":
			return done.first(2) && p.integer(&u.CompletionTokens)
		case "total_tokens":
			return done.first(4) && p.integer(&u.TotalTokens)
		}
		if foreign(key, "prompt_tokens", "completion_tokens", "total_tokens") {
			return false
		}
		return p.skip(0)
	})
	c.Usage = u
	return ok
}

// null consumes a null literal.
func (p *chunkParser) null() bool {
	p.ws()
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return true
	}
	return false
}

// integer reads a plain JSON integer into an int; null leaves it alone, as
// encoding/json does. Fractions and exponents bail out (encoding/json
// rejects them for an int).
func (p *chunkParser) integer(dst *int) bool {
	if p.null() {
		return true
	}
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	n := p.i - digits
	if n == 0 || (n > 1 && p.b[digits] == '0') {
		return false
	}
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case '.', 'e', 'E':
			return false
		}
	}
	v, err := strconv.ParseInt(string(p.b[start:p.i]), 10, 0)
	if err != nil {
		return false
	}
	*dst = int(v)
	return true
}

// str reads a JSON string (null leaves dst alone). With intern set, a value
// equal to the last one reuses its string instead of allocating.
func (p *chunkParser) str(dst *string, intern *string) bool {
	if p.null() {
		return true
	}
	if !p.next('"') {
		return false
	}
	start := p.i
	ascii := true
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			raw := p.b[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(raw) {
				return p.unquote(start-1, dst) // invalid UTF-8 is replaced
			}
			switch {
			case intern != nil && string(raw) == *intern:
				*dst = *intern
			default:
				*dst = string(raw)
				if intern != nil {
					*intern = *dst
				}
			}
			return true
		}
		if c == '\\' {
			return p.unquoteFrom(start-1, dst)
		}
		if c < 0x20 {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
		p.i++
	}
	return false
}

// unquoteFrom finds the end of a string with escapes that starts at the
// quote at q, and unquotes it.
func (p *chunkParser) unquoteFrom(q int, dst *string) bool {
	p.i = q + 1
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return p.unquote(q, dst)
		case c == '\\':
			p.i += 2
		case c < 0x20:
			return false
		default:
			p.i++
		}
	}
	return false
}

// unquote decodes the string token b[q:p.i] with encoding/json itself, so
// escapes, surrogates and invalid UTF-8 come out exactly as it makes them.
func (p *chunkParser) unquote(q int, dst *string) bool {
	return json.Unmarshal(p.b[q:p.i], dst) == nil
}

// skip passes over one JSON value of any kind, validating it as strictly
// as encoding/json does. Deep nesting bails out.
func (p *chunkParser) skip(depth int) bool {
	if depth > 64 {
		return false
	}
	switch p.peek() {
	case '{':
		return p.object(func([]byte) bool { return p.skip(depth + 1) })
	case '[':
		p.i++
		if p.next(']') {
			return true
		}
		for {
			if !p.skip(depth + 1) {
				return false
			}
			if p.next(',') {
				continue
			}
			return p.next(']')
		}
	case '"':
		return p.skipString()
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	default:
		return p.number()
	}
}

func (p *chunkParser) literal(lit string) bool {
	if bytes.HasPrefix(p.b[p.i:], []byte(lit)) {
		p.i += len(lit)
		return true
	}
	return false
}

// skipString validates a string token without keeping it.
func (p *chunkParser) skipString() bool {
	p.i++ // opening quote
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return false
			}
			switch p.b[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.b) {
					return false
				}
				for _, h := range p.b[p.i+2 : p.i+6] {
					if !isHex(h) {
						return false
					}
				}
				p.i += 6
			default:
				return false
			}
		default:
			p.i++
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number validates a JSON number.
func (p *chunkParser) number() bool {
	b, i := p.b, p.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	p.i = i
	return true
}
