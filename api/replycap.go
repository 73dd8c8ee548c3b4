package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"parley/internal/bytesize"
)

// DefaultMaxReplyBytes bounds the text of one chat reply when
// ClientConfig.MaxReplyBytes is zero: far more than any answer a person
// reads, far less than what takes a terminal's memory (a reply is held
// whole, rendered and stored).
const DefaultMaxReplyBytes = 8 << 20

// ReplyTooLargeError is a chat reply whose text passed the client's cap
// (ClientConfig.MaxReplyBytes, the config's max_reply_bytes). Reading
// stopped there and the connection was closed; the text up to the cap was
// delivered (Kept) unless the reply came as one JSON document too large to
// read at all.
type ReplyTooLargeError struct {
	Limit int64
	Kept  bool
}

func (e *ReplyTooLargeError) Error() string {
	if e.Kept {
		return fmt.Sprintf("the reply is larger than %s (max_reply_bytes); the text so far is kept", bytesize.Format(e.Limit))
	}
	return fmt.Sprintf("the reply is larger than %s (max_reply_bytes), so parley stopped reading it; raise max_reply_bytes in the config to read it", bytesize.Format(e.Limit))
}

// replyBodyLimit is how much of a JSON chat reply is read for a text cap
// of limit bytes: JSON escaping makes text longer on the wire (a newline
// or a quote takes two bytes), and the envelope adds a little.
func replyBodyLimit(limit int64) int64 { return 2*limit + 1<<20 }

// cutText returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func cutText(s string, n int64) string {
	if int64(len(s)) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	cut := int(n)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// capReply applies the text cap to a whole JSON reply: data is the body as
// read, over says it was cut at the body limit. It returns the reply (its
// text cut to limit) and a *ReplyTooLargeError when something was cut, or
// ok false when data is not a chat reply (the caller explains that).
func capReply(data []byte, over bool, limit int64) (reply ChatResponse, tooLarge *ReplyTooLargeError, ok bool) {
	if over {
		// The JSON is cut: take what it holds of the first message's text.
		text, found := partialContent(data)
		if !found {
			return ChatResponse{}, &ReplyTooLargeError{Limit: limit}, true
		}
		reply.Choices = []ChatChoice{{Message: TextMessage(RoleAssistant, cutText(text, limit))}}
		return reply, &ReplyTooLargeError{Limit: limit, Kept: true}, true
	}
	if json.Unmarshal(data, &reply) != nil || len(reply.Choices) == 0 {
		return ChatResponse{}, nil, false
	}
	for i := range reply.Choices {
		reply.Choices[i].separateThinking()
	}
	// The reasoning counts too, and comes first.
	ch := &reply.Choices[0]
	c := &ch.Message.Content
	if int64(len(ch.Reasoning)+len(c.PlainText())) <= limit {
		return reply, nil, true
	}
	ch.Reasoning = cutText(ch.Reasoning, limit)
	*c = Content{Text: cutText(c.PlainText(), limit-int64(len(ch.Reasoning)))}
	return reply, &ReplyTooLargeError{Limit: limit, Kept: true}, true
}

// partialContent decodes the string value of the first "content" key of a
// JSON document that was cut short, as far as it goes. found is false when
// there is no such string (content as a list of parts, or none at all).
func partialContent(data []byte) (text string, found bool) {
	const key = `"content"`
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(key))
		if j < 0 {
			return "", false
		}
		j += i
		k := skipSpace(data, j+len(key))
		if k < len(data) && data[k] == ':' {
			if k = skipSpace(data, k+1); k < len(data) && data[k] == '"' {
				return decodeJSONString(data[k+1:]), true
			}
		}
		i = j + len(key)
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// decodeJSONString decodes the body of a JSON string (after its opening
// quote) up to its closing quote or the end of data, whichever comes
// first; an escape cut by the end is dropped.
func decodeJSONString(data []byte) string {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '"':
			return string(out)
		case c != '\\':
			out = append(out, c)
			i++
			continue
		case i+1 >= len(data):
			return string(out)
		}
		esc := data[i+1]
		i += 2
		switch esc {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, n := decodeUnicodeEscape(data[i-2:])
			if n == 0 {
				return string(out)
			}
			out = utf8.AppendRune(out, r)
			i += n - 2
		default: // '"', '\\', '/'
			out = append(out, esc)
		}
	}
	return string(out)
}

// decodeUnicodeEscape decodes "\uXXXX" (and a following low surrogate) at
// the start of b, returning the rune and the bytes used; 0 when cut short.
func decodeUnicodeEscape(b []byte) (rune, int) {
	hex := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex(b)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if len(b) < 12 {
			return 0, 0 // the low half may be what was cut
		}
		if lo, ok := hex(b[6:]); ok {
			if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}
