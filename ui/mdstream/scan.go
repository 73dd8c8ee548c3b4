package mdstream

import "bytes"

// scanner walks the complete lines of a message once, in order, and
// proposes places where one run of top-level blocks may end and the next
// begin. Proposals are cheap and may be wrong; each is checked against the
// parser before it is used (see cut.go). Only lines that start in column
// 0 are proposed: a line indented after a blank line may continue a list
// item or an indented code block.
type scanner struct {
	pos        int  // start of the first line not yet scanned (the partial line)
	prevBlank  bool // the line before pos is blank
	prevClose  bool // the line before pos closed a fenced code block
	fenceOpen  bool // the scanner believes a fence is open at pos
	fenceChar  byte
	fenceLen   int
	fenceStart int // start of the open fence's opening line
}

// scan consumes the complete lines of src from s.pos and calls propose
// with the start of each line that may begin a new run of blocks:
//
//   - a line in column 0 after a blank line (outside a fence);
//   - a line in column 0 right after a closing code fence;
//   - an opening code fence in column 0 (a fence interrupts a paragraph).
func (s *scanner) scan(src []byte, propose func(int)) {
	for {
		nl := bytes.IndexByte(src[s.pos:], '\n')
		if nl < 0 {
			return
		}
		start := s.pos
		line := trimCR(src[start : start+nl])
		s.pos = start + nl + 1
		blank := isBlank(line)
		closed := false
		if s.fenceOpen {
			if isClosingFence(line, s.fenceChar, s.fenceLen) {
				s.fenceOpen = false
				closed = true
			}
		} else {
			col0 := !blank && line[0] != ' ' && line[0] != '\t'
			after := s.prevBlank || s.prevClose
			if col0 && after {
				propose(start)
			}
			if ch, n, ok := fenceOpener(line); ok {
				s.fenceOpen, s.fenceChar, s.fenceLen, s.fenceStart = true, ch, n, start
				if col0 && !after {
					propose(start)
				}
			}
		}
		s.prevBlank, s.prevClose = blank, closed
	}
}

// partialCandidate reports whether the partial last line (from s.pos) may
// begin a new run of blocks, as scan would say once it is complete.
func (s *scanner) partialCandidate(src []byte) bool {
	if s.fenceOpen || s.pos >= len(src) {
		return false
	}
	c := src[s.pos]
	return c != ' ' && c != '\t' && c != '\r' && (s.prevBlank || s.prevClose)
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// fenceOpener reports whether line opens a fenced code block (CommonMark:
// up to three spaces, three or more backticks or tildes, and for backticks
// an info string without backticks).
func fenceOpener(line []byte) (byte, int, bool) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0, false
	}
	ch := line[i]
	n := 0
	for i < len(line) && line[i] == ch {
		i++
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if ch == '`' && bytes.IndexByte(line[i:], '`') >= 0 {
		return 0, 0, false
	}
	return ch, n, true
}

// isClosingFence reports whether line closes a fence opened with n ch's.
func isClosingFence(line []byte, ch byte, n int) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	m := 0
	for i < len(line) && line[i] == ch {
		i++
		m++
	}
	if m < n {
		return false
	}
	return isBlank(line[i:])
}

// decidable reports whether a partial line already shows enough to know
// how it relates to the blocks before it: once it holds a character that
// cannot be part of a list marker, a definition marker, a thematic break or
// a fence, appending to it cannot make it continue an earlier block.
func decidable(partial []byte) bool {
	for _, c := range partial {
		switch c {
		case '-', '*', '+', ':', '.', ')', '`', '~', '_', ' ', '\t', '\r',
			'0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		default:
			return true
		}
	}
	return false
}
