package mdstream

import "bytes"

// tailEnd is where the rendered tail ends. While streaming, the last line
// is held back when it would flash as something it is not yet, until the
// next line shows what it is (or the message is finished):
//
//   - a code fence being typed: a partial line of up to three spaces, then
//     only backticks or only tildes. Before the third backtick glamour
//     shows the backticks as a stray paragraph (or, inside an open fence,
//     as a code line of the closing fence being written);
//   - a table being started: a last line that starts with a | under a line
//     without one may be a table's header, which shows as a paragraph of
//     pipes until the delimiter row below it is complete. The header and
//     the partial delimiter row (only |, -, :, spaces and tabs, with a |)
//     are held back together;
//   - a table delimiter row being written under a line with a | (a header
//     without a leading |): that partial row is held back.
//
// Nothing before d.stable is held back: those blocks are already final.
func (d *Doc) tailEnd() int {
	if d.finished || len(d.over) > 0 {
		return len(d.src)
	}
	return holdBack(d.src, d.sc.pos, d.stable)
}

// holdBack is tailEnd for a source whose partial last line starts at pos
// (len(src) when the source ends with a newline) and whose first stable
// bytes are final.
func holdBack(src []byte, pos, stable int) int {
	end := len(src)
	if end == 0 {
		return end
	}
	// The last line: the partial one, else the last complete one.
	ls, partial := pos, pos < end
	if !partial {
		ls = bytes.LastIndexByte(src[:end-1], '\n') + 1
	}
	last := trimCR(bytes.TrimSuffix(src[ls:], []byte("\n")))
	hold := func(at int) int {
		if at < stable {
			return end
		}
		return at
	}
	if partial && isFenceStart(last) {
		return hold(ls)
	}
	prevStart, prev := lineBefore(src, ls)
	if startsWithPipe(last) && !hasPipe(prev) {
		return hold(ls) // a table header, maybe
	}
	if partial && isDelimiterStart(last) && hasPipe(prev) {
		if _, before := lineBefore(src, prevStart); prevStart >= 0 && !hasPipe(before) {
			return hold(prevStart) // a table's header and its delimiter row
		}
		return hold(ls)
	}
	return end
}

// lineBefore returns the start and the text of the line that ends just
// before offset ls, or -1 and nil at the start of src.
func lineBefore(src []byte, ls int) (int, []byte) {
	if ls <= 0 {
		return -1, nil
	}
	start := bytes.LastIndexByte(src[:ls-1], '\n') + 1
	return start, trimCR(src[start : ls-1])
}

func hasPipe(b []byte) bool { return bytes.IndexByte(b, '|') >= 0 }

// startsWithPipe reports whether a line starts with a | after up to three
// spaces.
func startsWithPipe(b []byte) bool {
	i := 0
	for i < len(b) && i < 3 && b[i] == ' ' {
		i++
	}
	return i < len(b) && b[i] == '|'
}

// isFenceStart reports whether a partial line may be a code fence being
// typed: up to three spaces, then one or more backticks or one or more
// tildes, and nothing else yet.
func isFenceStart(b []byte) bool {
	i := 0
	for i < len(b) && i < 3 && b[i] == ' ' {
		i++
	}
	if i >= len(b) || (b[i] != '`' && b[i] != '~') {
		return false
	}
	ch := b[i]
	for ; i < len(b); i++ {
		if b[i] != ch {
			return false
		}
	}
	return true
}

// isDelimiterStart reports whether a partial line may be the start of a
// table's delimiter row.
func isDelimiterStart(b []byte) bool {
	pipe := false
	for _, c := range b {
		switch c {
		case '|':
			pipe = true
		case '-', ':', ' ', '\t':
		default:
			return false
		}
	}
	return pipe
}

// Shown returns the part of a message that a streaming Doc shows: md
// without the last line held back while streaming (a code fence being
// typed, a table's header and its partial delimiter row). A reply cut off
// in the middle (interrupted, failed) is shown so: its last table row is
// shown as far as it came, but a table that never got its delimiter row
// is not shown as a paragraph of pipes.
func Shown(md string) string {
	var sc scanner
	src := []byte(md)
	sc.scan(src, func(int) {})
	return md[:holdBack(src, sc.pos, 0)]
}
