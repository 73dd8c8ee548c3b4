// Package tomlnest checks how deeply the arrays and inline tables of a
// TOML document nest, before a decoder sees it. The decoder's time and
// memory grow much faster than the input with nesting (16 KB of nested
// inline tables took 726 MB), and no file parley reads needs more than a
// few levels, so a document nested deeper than a small limit is refused
// with the line and column where it goes too deep.
package tomlnest

import "fmt"

// MaxDepth is the nesting parley accepts: well beyond any real config or
// theme file (those need two levels at most). The decoder's cost per byte
// grows with the depth: a 1 MiB file of inline tables nested 8 deep
// decodes in about 2 s, nested 32 deep in about 5 s and 1.2 GB of
// allocations, so the limit stays small.
const MaxDepth = 8

// Error is a document nested deeper than the limit, at Line:Col (1-based;
// Col counts bytes).
type Error struct {
	Line, Col int
	Limit     int
}

func (e *Error) Error() string {
	return fmt.Sprintf("arrays and inline tables are nested more than %d levels deep here; no setting needs that, so flatten the value", e.Limit)
}

// Check scans src and returns an *Error at the first '[' or '{' that opens
// a level beyond limit, or nil. It follows TOML's strings (basic and
// literal, single- and multi-line, with escapes) and comments, so brackets
// inside them do not count. It does not validate anything else; the
// decoder does that afterwards.
func Check(src string, limit int) error {
	depth, line, lineStart := 0, 1, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\n':
			line++
			lineStart = i + 1
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '[', '{':
			depth++
			if depth > limit {
				return &Error{Line: line, Col: i - lineStart + 1, Limit: limit}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			end, lines, last := skipString(src, i)
			if lines > 0 {
				line += lines
				lineStart = last
			}
			i = end - 1
		}
	}
	return nil
}

// skipString returns the index just past the string that starts at src[i]
// (or len(src) when it never ends), the newlines inside it, and the index
// after the last of them.
func skipString(src string, i int) (end, lines, lastStart int) {
	q := src[i]
	multi := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	j := i + 1
	if multi {
		j = i + 3
	}
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\\' && q == '"':
			if j+1 < len(src) && src[j+1] == '\n' {
				if !multi {
					return j + 1, lines, lastStart
				}
				lines++ // a line-ending backslash
				lastStart = j + 2
			}
			j += 2
			continue
		case c == '\n':
			if !multi {
				return j, lines, lastStart // an unterminated string ends with its line
			}
			lines++
			lastStart = j + 1
		case c == q && !multi:
			return j + 1, lines, lastStart
		case c == q && j+2 < len(src) && src[j+1] == q && src[j+2] == q:
			// Up to two more quotes may close a multi-line string ("""" "").
			k := j + 3
			for n := 0; n < 2 && k < len(src) && src[k] == q; n++ {
				k++
			}
			return k, lines, lastStart
		}
		j++
	}
	return len(src), lines, lastStart
}
