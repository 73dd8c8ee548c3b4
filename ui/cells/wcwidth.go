package cells

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// ForWcWidth rewrites text for a terminal that measures characters one code
// point at a time (wcwidth), as terminals without mode 2027 do (tmux among
// them). The UI lays text out by grapheme cluster: an emoji with a skin
// tone is one 2-cell cluster, but such a terminal draws it 4 cells wide, so
// the line overflows and its end is clipped. Every cluster whose two widths
// differ becomes its first code point, padded to the cluster's width, so
// both measures agree and nothing is clipped or pushed off the screen.
// That loses parts of the cluster (👨‍👩‍👧 becomes 👨), so text that can be
// laid out for such a terminal is (the transcript, see Parts): its
// clusters agree and pass here unchanged; this is the last resort for the
// rest of the frame. Escape sequences pass unchanged. Text without
// multi-code-point clusters is returned as is, without copying.
func ForWcWidth(s string) string {
	if !mayDisagree(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		if s[0] == 0x1b {
			n := escapeLen(s)
			b.WriteString(s[:n])
			s = s[n:]
			continue
		}
		// A run of text up to the next escape sequence.
		end := strings.IndexByte(s, 0x1b)
		if end < 0 {
			end = len(s)
		}
		writeClusters(&b, s[:end])
		s = s[end:]
	}
	return b.String()
}

// writeClusters writes text (no escapes) cluster by cluster.
func writeClusters(b *strings.Builder, text string) {
	state := -1
	for len(text) > 0 {
		var cluster string
		cluster, text, _, state = uniseg.FirstGraphemeClusterInString(text, state)
		if utf8.RuneCountInString(cluster) == 1 {
			b.WriteString(cluster)
			continue
		}
		gw := ansi.GraphemeWidth.StringWidth(cluster)
		if ansi.WcWidth.StringWidth(cluster) == gw {
			b.WriteString(cluster)
			continue
		}
		r, _ := utf8.DecodeRuneInString(cluster)
		base := string(r)
		bw := ansi.WcWidth.StringWidth(base)
		switch {
		case bw <= gw:
			b.WriteString(base)
			b.WriteString(Spaces(gw - bw))
		default:
			b.WriteString(Spaces(gw))
		}
	}
}

// mayDisagree reports whether s has a code point that can join a cluster
// to the one before it (a combining mark, a joiner, a variation selector,
// a skin tone, a keycap); plain text and box drawing never do.
func mayDisagree(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r >= 0x0300 && r <= 0x036F, // combining diacritics
			r >= 0x0900 && r <= 0x0DFF,   // Indic scripts with combining signs
			r >= 0x0E30 && r <= 0x0E4E,   // Thai vowels and tone marks
			r >= 0x1100 && r <= 0x11FF,   // Hangul jamo
			r == 0x200D,                  // zero width joiner
			r >= 0xFE00 && r <= 0xFE0F,   // variation selectors
			r == 0x20E3,                  // combining keycap
			r >= 0x1F3FB && r <= 0x1F3FF, // skin tones
			r >= 0x1F1E6 && r <= 0x1F1FF, // regional indicators
			r >= 0xE0020 && r <= 0xE007F: // tags
			return true
		}
	}
	return false
}

// escapeLen is the length of the escape sequence at the start of s (CSI,
// OSC/DCS/APC strings, or a two-byte escape).
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^', 'X':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}
