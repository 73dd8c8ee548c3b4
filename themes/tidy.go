package themes

import "strings"

// Tidy removes the padding glamour writes at the end of every line: glamour
// pads each line to the wrap width with spaces, each styled like the
// enclosing block, which makes the output several times larger than the
// text and slows every later step (wrapping, measuring, diffing). Trailing
// spaces are removed only where they are invisible: a space under a
// background colour, reverse video, underline, strike-through or overline
// is kept. The SGR sequences in a removed tail are kept as far as they
// matter for the next line (everything before the tail's last full reset is
// dropped). Visible text and styling are unchanged; s is returned as is
// when there is nothing to remove.
func Tidy(s string) string {
	var b strings.Builder // unused until the first change
	var st sgrState
	last := 0 // s[:last] is settled: written to b, or unchanged if b is empty
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if cut, ok := tidyLine(s[start:end], &st); ok {
			if b.Len() == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[last : start+cut])
			writeKeptSGR(&b, s[start+cut:end])
			last = end
		}
		start = end + 1
	}
	if b.Len() == 0 && last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// tidyLine scans one line, updating st, and reports where its invisible
// tail (spaces and SGR sequences only) starts, and whether the tail holds a
// space, which makes it worth removing.
func tidyLine(line string, st *sgrState) (cut int, ok bool) {
	spaces := 0
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == 0x1b:
			n, sgr := escLen(line[i:])
			if sgr {
				st.apply(line[i+2 : i+n-1])
			} else {
				cut, spaces = i+n, 0 // unknown sequences stay
			}
			i += n
		case c == ' ' && !st.spaceVisible():
			spaces++
			i++
		default:
			i++
			cut, spaces = i, 0
		}
	}
	return cut, spaces > 0
}

// writeKeptSGR writes the SGR sequences of an invisible tail that still
// matter: those from the last full reset on (SGR sequences printed with
// nothing between them add up, and a reset cancels everything before it).
func writeKeptSGR(b *strings.Builder, tail string) {
	k := max(strings.LastIndex(tail, "\x1b[m"), strings.LastIndex(tail, "\x1b[0m"), 0)
	for _, c := range []byte(tail[k:]) {
		if c != ' ' {
			b.WriteByte(c)
		}
	}
}

// escLen measures the escape sequence at the start of s (s[0] is ESC) and
// reports whether it is SGR. An incomplete sequence counts as one byte.
func escLen(s string) (n int, sgr bool) {
	if len(s) < 2 {
		return 1, false
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1, c == 'm' && strings.Trim(s[2:i], "0123456789;:") == ""
			}
		}
		return 1, false
	case ']', 'P', '_', '^', 'X':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1, false
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2, false
			}
		}
		return 1, false
	}
	return 2, false
}

// sgrState tracks the SGR attributes that make a space visible.
type sgrState struct {
	bg, reverse, underline, strike, overline bool
}

func (st *sgrState) spaceVisible() bool {
	return st.bg || st.reverse || st.underline || st.strike || st.overline
}

// apply updates st with the parameters of one SGR sequence.
func (st *sgrState) apply(params string) {
	if params == "" {
		*st = sgrState{}
		return
	}
	skip := 0 // colour arguments still to skip: 38;5;n and 38;2;r;g;b
	for rest := params; ; {
		p := rest
		k := strings.IndexByte(rest, ';')
		if k >= 0 {
			p, rest = rest[:k], rest[k+1:]
		}
		if skip > 0 {
			skip--
		} else {
			skip = st.param(p, rest)
		}
		if k < 0 {
			return
		}
	}
}

// param applies one parameter (with its ':' sub-parameters) and returns how
// many following ';' parameters are its arguments.
func (st *sgrState) param(p, rest string) int {
	sub := ""
	if k := strings.IndexByte(p, ':'); k >= 0 {
		p, sub = p[:k], p[k+1:]
	}
	switch p {
	case "", "0":
		*st = sgrState{}
	case "4":
		st.underline = sub != "0"
	case "21":
		st.underline = true
	case "24":
		st.underline = false
	case "7":
		st.reverse = true
	case "27":
		st.reverse = false
	case "9":
		st.strike = true
	case "29":
		st.strike = false
	case "53":
		st.overline = true
	case "55":
		st.overline = false
	case "49":
		st.bg = false
	case "38", "48", "58":
		if p == "48" {
			st.bg = true
		}
		if sub == "" {
			switch {
			case strings.HasPrefix(rest, "5;") || rest == "5":
				return 2
			case strings.HasPrefix(rest, "2;") || rest == "2":
				return 4
			}
		}
	default:
		if n := len(p); (n == 2 && p[0] == '4' && p[1] >= '0' && p[1] <= '7') ||
			(n == 3 && p[0] == '1' && p[1] == '0' && p[2] >= '0' && p[2] <= '7') {
			st.bg = true
		}
	}
	return 0
}
