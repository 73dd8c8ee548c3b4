package mdstream

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabStop is the tab width used when tabs in code are expanded to spaces:
// a tab left in a line would make its width depend on the terminal column
// the line starts at.
const tabStop = 4

// sgrReset ends any style a trimmed line may have left open.
const sgrReset = "\x1b[m"

// cleanLine makes one line of glamour output safe and bounded:
//
//   - escape sequences other than SGR (colours and attributes) are dropped.
//     glamour writes OSC 8 hyperlinks for every link and autolink, and a link
//     target is model text; nothing in a line may make a hyperlink, set a
//     title, move the cursor or talk to the terminal;
//   - control characters are dropped, tabs expanded to spaces (tabStop);
//   - trailing blank cells (glamour pads every line to the full width) are
//     trimmed: they are invisible without a document background and multiply
//     the bytes every frame carries;
//   - a line still wider than width (a code line: glamour does not wrap code
//     blocks; a tab expansion; a line glamour's word wrap left too long)
//     is wrapped at spaces so no line exceeds width cells, see softwrap.
//
// It returns one line, or more when it had to wrap.
func cleanLine(line string, width int) []string {
	s := filterLine(line)
	if ansi.StringWidth(s) > width {
		return softwrap(s, width)
	}
	return []string{s}
}

// filterLine does the escape, control, tab and trailing-space work of
// cleanLine in one pass. It is on the per-frame path, so plain ASCII runs
// are copied without decoding.
func filterLine(s string) string {
	if isPlainTrimmed(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	// keep is the length of b up to the last visible cell; sgrAfter records
	// that styles were written after it (they are dropped with the trailing
	// spaces, and a reset keeps the line closed).
	keep := 0
	sgrAfter := false
	hasTab := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, sgr := escapeLen(s[i:])
			if sgr {
				b.WriteString(s[i : i+n])
				sgrAfter = true
			}
			i += n
		case c == '\t':
			hasTab = true
			b.WriteByte('\t')
			keep = b.Len()
			sgrAfter = false
			i++
		case c == ' ':
			b.WriteByte(' ')
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			keep = b.Len()
			sgrAfter = false
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r >= 0x80 && r <= 0x9f:
				// C1 controls (CSI, OSC, ST, ... as code points)
			case r == utf8.RuneError && n == 1:
				b.WriteString("\uFFFD")
				keep = b.Len()
				sgrAfter = false
			case r == 0xa0:
				// A no-break space (padding of code spans, see nbsp) is a
				// plain space on screen; it counts as text so padding at
				// the end of a line stays.
				b.WriteByte(' ')
				keep = b.Len()
				sgrAfter = false
			default:
				b.WriteString(s[i : i+n])
				keep = b.Len()
				sgrAfter = false
			}
			i += n
		}
	}
	out := b.String()
	if keep == 0 {
		return "" // nothing visible: no style can be left open either
	}
	if keep < len(out) {
		// Drop trailing spaces; styles set among them matter no more.
		tail := out[keep:]
		out = out[:keep]
		if sgrAfter || strings.Contains(tail, "\x1b[") {
			out += sgrReset
		}
	}
	if hasTab {
		out = expandTabs(out)
	}
	return out
}

// isPlainTrimmed reports whether s needs no cleaning at all: printable
// ASCII only, no trailing space.
func isPlainTrimmed(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return len(s) == 0 || s[len(s)-1] != ' '
}

// escapeLen returns the length of the escape sequence at the start of s
// (which begins with ESC) and whether it is an SGR sequence worth keeping.
// Unterminated sequences run to the end of s.
func escapeLen(s string) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		// CSI: parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E.
		sgrOK := true
		for j := 2; j < len(s); j++ {
			c := s[j]
			switch {
			case c >= 0x30 && c <= 0x3f:
				if c != ';' && c != ':' && (c < '0' || c > '9') {
					sgrOK = false
				}
			case c >= 0x20 && c <= 0x2f:
				sgrOK = false
			case c >= 0x40 && c <= 0x7e:
				return j + 1, sgrOK && c == 'm'
			default:
				// Not a valid CSI byte: the sequence is cut off here.
				return j, false
			}
		}
		return len(s), false
	case ']', 'P', '_', '^', 'X':
		// OSC, DCS, APC, PM, SOS: a string up to BEL or ST (ESC \ or C1 ST).
		for j := 2; j < len(s); j++ {
			switch s[j] {
			case 0x07:
				return j + 1, false
			case 0x1b:
				if j+1 < len(s) && s[j+1] == '\\' {
					return j + 2, false
				}
				return j, false
			case 0xc2:
				if j+1 < len(s) && s[j+1] == 0x9c {
					return j + 2, false
				}
			}
		}
		return len(s), false
	default:
		// Two-byte escapes (and intermediates): ESC, intermediates, final.
		j := 1
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j, false
	}
}

// expandTabs replaces tabs by spaces up to the next tab stop, counting
// cells as the terminal will.
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for {
		i := strings.IndexByte(s, '\t')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		col += ansi.StringWidth(s[:i])
		n := tabStop - col%tabStop
		b.WriteString(strings.Repeat(" ", n))
		col += n
		s = s[i+1:]
	}
}
