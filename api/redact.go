package api

import (
	"strings"
	"unicode/utf8"
)

// redactedKey replaces every trace of the API key in text parley shows.
const redactedKey = "[redacted]"

// redactor masks one secret in text: the key itself, any long enough run of
// its characters (a gateway that echoes a truncated key), and the partial
// echoes gateways print on purpose, such as OpenAI's
// "Incorrect API key provided: sk-proj-********************abcd" or
// "sk-abc1...wxyz", where the visible ends are a prefix and a suffix of the
// key. The zero value masks nothing.
type redactor struct {
	key    string
	minRun int            // shortest run of key characters that is masked
	grams  map[string]int // first position in key of each minRun-long piece
}

func newRedactor(key string) redactor {
	r := redactor{key: key}
	if len(key) < shortKey {
		return r // only whole-token matches: runs of a short key are common words
	}
	r.minRun = max(6, min(len(key)/2, 12))
	r.grams = make(map[string]int, len(key))
	for i := 0; i+r.minRun <= len(key); i++ {
		g := key[i : i+r.minRun]
		if _, ok := r.grams[g]; !ok {
			r.grams[g] = i
		}
	}
	return r
}

// mask returns s with the key masked.
func (r redactor) mask(s string) string {
	if r.key == "" || s == "" {
		return s
	}
	if len(r.key) < shortKey {
		return maskTokens(s, r.key)
	}
	s = strings.ReplaceAll(s, r.key, redactedKey)
	if r.grams != nil {
		s = r.maskRuns(s)
	}
	s = r.maskEchoes(s)
	// A partly starred echo can be masked in two pieces (its visible head
	// as a run of the key, the stars and tail as an echo); show one.
	for strings.Contains(s, redactedKey+redactedKey) {
		s = strings.ReplaceAll(s, redactedKey+redactedKey, redactedKey)
	}
	return s
}

// maskRuns masks every stretch of s that is at least minRun characters of
// the key in a row.
func (r redactor) maskRuns(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+r.minRun <= len(s); {
		p, ok := r.grams[s[i:i+r.minRun]]
		if !ok {
			i++
			continue
		}
		// Extend as far as both strings agree. The first occurrence in the
		// key may not be the longest match; try every later one too.
		best := 0
		for q := p; q+r.minRun <= len(r.key); q++ {
			if r.key[q:q+r.minRun] != s[i:i+r.minRun] {
				continue
			}
			n := r.minRun
			for i+n < len(s) && q+n < len(r.key) && s[i+n] == r.key[q+n] {
				n++
			}
			best = max(best, n)
		}
		b.WriteString(s[last:i])
		b.WriteString(redactedKey)
		i += best
		last = i
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// shortKey is the length below which a key is masked only where it stands
// alone as a token. Local servers take dummy keys ("k", "none", "ollama");
// masking those wherever they occur would blank the letters of ordinary
// words in error text ("Incorrect API [redacted]ey").
const shortKey = 8

// maskTokens masks each occurrence of key in s that is not part of a
// longer run of key characters.
func maskTokens(s, key string) string {
	var b strings.Builder
	last := 0
	for from := 0; from <= len(s)-len(key); {
		i := strings.Index(s[from:], key)
		if i < 0 {
			break
		}
		i += from
		end := i + len(key)
		if (i > 0 && isKeyChar(s[i-1])) || (end < len(s) && isKeyChar(s[end])) {
			from = i + 1
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(redactedKey)
		last, from = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isKeyChar reports characters that API keys are made of.
func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// maskEchoes masks tokens like "sk-proj-****abcd", "sk-ab...yz" or
// "…abcd" whose visible parts are the key's own prefix and suffix.
func (r redactor) maskEchoes(s string) string {
	for from := 0; from < len(s); {
		start, end := maskRun(s, from)
		if start < 0 {
			break
		}
		ts := start
		for ts > 0 && isKeyChar(s[ts-1]) {
			ts--
		}
		te := end
		for te < len(s) && isKeyChar(s[te]) {
			te++
		}
		pre, suf := s[ts:start], s[end:te]
		if len(pre)+len(suf) >= 4 && strings.HasPrefix(r.key, pre) && strings.HasSuffix(r.key, suf) {
			s = s[:ts] + redactedKey + s[te:]
			from = ts + len(redactedKey)
			continue
		}
		from = end
	}
	return s
}

// maskRun finds the next run of masking characters at or after from: three
// or more of '*', '•', 'x'-free '.', or one '…'. It returns -1 when none.
func maskRun(s string, from int) (start, end int) {
	for i := from; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "…"):
			j := i + len("…")
			for strings.HasPrefix(s[j:], "…") {
				j += len("…")
			}
			return i, j
		case s[i] == '*' || s[i] == '.' || strings.HasPrefix(s[i:], "•"):
			j := i
			n := 0
			for j < len(s) {
				if s[j] == '*' || s[j] == '.' {
					j++
				} else if strings.HasPrefix(s[j:], "•") {
					j += len("•")
				} else {
					break
				}
				n++
			}
			if n >= 3 {
				return i, j
			}
			i = j - 1
		}
	}
	return -1, -1
}

// replyMaskMinKey is the shortest key masked in replies. Local gateways
// take placeholder keys such as "ollama" or "lm-studio", and masking those
// would blank ordinary words in answers; real keys are far longer.
const replyMaskMinKey = 16

// replyMask masks the key in reply text that arrives in pieces, so that a
// reply echoing the key (pasted config, a debugging session) does not show
// it on screen, in a screen-share or in a script's log. Only the whole key
// and long runs of it are masked, not the starred echoes gateways print:
// those patterns ("sk-proj-...") are ordinary in answers about keys.
//
// A match consists of token characters only (see tokenRune), so text up
// to the last character that is not one can be masked and shown; the
// trailing token is held back until the next piece ends it. A token longer
// than holdMax is let go in part, keeping the last stretch as long as the
// key, so a pathological run of key characters cannot stall the reply.
type replyMask struct {
	red  redactor
	held string
}

func newReplyMask(key string) replyMask {
	if len(key) < replyMaskMinKey {
		return replyMask{}
	}
	return replyMask{red: newRedactor(key)}
}

// active reports whether there is a key to mask.
func (m *replyMask) active() bool { return m.red.key != "" }

// write takes the next piece and returns the text that is final so far.
func (m *replyMask) write(piece string) string {
	if !m.active() {
		return piece
	}
	s := m.held + piece
	cut := m.tokenStart(s)
	if holdMax := 2*len(m.red.key) + 64; len(s)-cut > holdMax {
		cut = len(s) - len(m.red.key)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	m.held = s[cut:]
	return m.maskText(s[:cut])
}

// flush returns whatever is held back, masked, at the end of the reply.
func (m *replyMask) flush() string {
	s := m.held
	m.held = ""
	return m.maskText(s)
}

// reset drops what is held back (the reply starts over).
func (m *replyMask) reset() { m.held = "" }

// maskText masks the whole key and runs of it in s.
func (m *replyMask) maskText(s string) string {
	if s == "" {
		return s
	}
	s = strings.ReplaceAll(s, m.red.key, redactedKey)
	if m.red.grams != nil {
		s = m.red.maskRuns(s)
	}
	return s
}

// tokenStart returns where the trailing run of token characters of s
// begins (len(s) when s ends with another character).
func (m *replyMask) tokenStart(s string) int {
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !m.tokenRune(r) {
			break
		}
		i -= size
	}
	return i
}

// tokenRune reports characters a masked stretch can contain: those of API
// keys, and any other character of this key.
func (m *replyMask) tokenRune(r rune) bool {
	if r < utf8.RuneSelf && isKeyChar(byte(r)) {
		return true
	}
	return strings.ContainsRune(m.red.key, r)
}
