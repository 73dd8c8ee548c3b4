package termsafe

import "strings"

// MarkdownStream is [Markdown] for text that arrives in pieces (stream
// deltas), as [Stream] is for [Sanitize]. Besides what Stream holds back, it
// holds back a trailing "&", "&#", "&#x" or "&#" plus digits until the next
// piece shows where that numeric character reference ends, so that
// Markdown sees every reference whole: "&#2" then "7;" must not pass as two
// harmless halves. For every way of splitting a text s into pieces, the
// concatenated results of Write followed by Flush equal Markdown(s), as
// long as no reference in s is longer than maxRefHold bytes (see there).
// The zero value is ready to use; a MarkdownStream is not safe for
// concurrent use.
type MarkdownStream struct {
	st   Stream
	held string // the start of a numeric character reference, sanitised
}

// maxRefHold bounds what is held back, so a run of digits cannot make the
// stream hold everything. A longer reference is released in parts, each
// made safe on its own; a renderer may then decode the joined parts (say
// "&#0000…027;" padded with zeros past the bound), which is why renderer
// output must still go through [KeepSGR] or an equivalent filter.
const maxRefHold = 32

// Write makes the next piece safe and returns the text that is final so
// far (possibly "", while a reference is held back).
func (m *MarkdownStream) Write(delta string) string {
	return m.hold(m.st.Write(delta))
}

// Flush returns whatever is held back, made safe, and resets the stream
// for reuse. Call it when the text ends, also after an error.
func (m *MarkdownStream) Flush() string {
	s := m.hold(m.st.Flush())
	s += Markdown(m.held)
	m.held = ""
	return s
}

// hold joins s (already sanitised) to what was held back and returns it
// through Markdown, keeping back a trailing partial reference.
func (m *MarkdownStream) hold(s string) string {
	if m.held != "" {
		s = m.held + s
		m.held = ""
	}
	if s == "" {
		return ""
	}
	if k := partialRefStart(s); k >= 0 {
		m.held = s[k:]
		s = s[:k]
	}
	return Markdown(s)
}

// partialRefStart returns the index of a trailing "&", "&#", "&#x" or "&#"
// plus digits in s that is at most maxRefHold bytes long, or -1.
func partialRefStart(s string) int {
	k := strings.LastIndexByte(s, '&')
	if k < 0 || len(s)-k > maxRefHold {
		return -1
	}
	rest := s[k+1:]
	if rest == "" {
		return k
	}
	if rest[0] != '#' {
		return -1
	}
	rest = rest[1:]
	hex := false
	if rest != "" && (rest[0] == 'x' || rest[0] == 'X') {
		hex = true
		rest = rest[1:]
	}
	for i := 0; i < len(rest); i++ {
		if !isRefDigit(rest[i], hex) {
			return -1
		}
	}
	return k
}
