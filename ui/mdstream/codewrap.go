package mdstream

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Glamour indents a code block's lines (its IndentWriter) before the
// enclosing block word-wraps them, so the continuation of a code line too
// long for the width starts at the block's left edge instead of under the
// code. That is glamour's layout, not something a style can change, so the
// renderer marks where each code block starts (codeMark, the style's block
// prefix) and fixCode puts the code block's indent back on the
// continuation lines.
//
// The mark is a bidi isolate: zero width, so it does not change how glamour
// wraps, and never part of sanitised text (termsafe replaces it), so a reply
// cannot forge one; an unsanitised source has it replaced before rendering
// (see unmarkSource).
const codeMark = "\u2066"

// The marks the renderer puts in glamour's output: all bidi isolates, so
// zero width and never in sanitised text.
const (
	tableMark    = "\u2067" // before a table (Options.FitTables)
	tableEndMark = "\u2068" // after it
)

var marks = []string{codeMark, tableMark, tableEndMark}

// unmarkSource returns src without the renderer's marks, copying only when
// it has one.
func unmarkSource(src []byte) []byte {
	for _, m := range marks {
		if bytes.Contains(src, []byte(m)) {
			src = bytes.ReplaceAll(src, []byte(m), []byte("\uFFFD"))
		}
	}
	return src
}

// fixCode removes the code marks from glamour's output, indents the
// continuation lines of wrapped code lines like the code lines themselves
// (when the style indents code), and with Options.CodeNumbers writes each
// block's label on the line above it. codes are the code blocks in render
// order (see prepare), base the number of code blocks before them.
//
// Inside a block, a code line has indent blank cells right after the
// enclosing prefix (nothing at the top level, "│ " in a quote) and a
// continuation line has text there, right below a code line with text.
// The block ends after its last source line (glamour puts a blank line or
// the end of the text after a code block).
func (r *Renderer) fixCode(out string, codes []codeInfo, base int) string {
	if !strings.Contains(out, codeMark) {
		return out
	}
	indent := r.codeIndent
	lines := strings.Split(out, "\n")
	block := 0
	for i := 0; i < len(lines); i++ {
		k := strings.Index(lines[i], codeMark)
		if k < 0 {
			continue
		}
		// The cells before the mark are the enclosing prefix and the
		// code indent.
		outer := max(ansi.StringWidth(lines[i][:k])-indent, 0)
		lines[i] = removeMark(lines[i], k)
		var info codeInfo
		if block < len(codes) {
			info = codes[block]
		}
		block++
		if r.opts.CodeNumbers && i > 0 {
			lines[i-1] = r.withLabel(lines[i-1], outer+indent, base+block, info.lang)
		}
		n := info.lines
		if n == 0 {
			// An empty block: the mark stands on the blank line that
			// follows, or, at the end, on a line of its own that glamour
			// would not have written.
			if i == len(lines)-1 {
				lines[i] = ""
			}
			continue
		}
		if indent > 0 {
			i = reindentBlock(lines, i, n, outer, indent)
		}
	}
	return strings.Join(lines, "\n")
}

// removeMark removes the mark at byte k of l, together with the style
// glamour wrapped it in (the enclosing block's colour), so that a code block
// whose lines all fit is rendered byte for byte as glamour renders it.
func removeMark(l string, k int) string {
	from, to := k, k+len(codeMark)
	if j := strings.LastIndex(l[:k], "\x1b["); j >= 0 {
		if n, sgr := escapeLen(l[j:]); sgr && j+n == k {
			for _, reset := range []string{"\x1b[m", "\x1b[0m"} {
				if strings.HasPrefix(l[to:], reset) {
					from, to = j, to+len(reset)
					break
				}
			}
		}
	}
	return l[:from] + l[to:]
}

// reindentBlock indents the continuation lines of the code block whose
// first line is lines[first] and which has n source lines, and returns the
// index of its last line.
func reindentBlock(lines []string, first, n, outer, indent int) int {
	seen, prevText := 1, hasText(lines[first], outer)
	i := first
	for ; i+1 < len(lines); i++ {
		l := lines[i+1]
		atIndent := strings.TrimSpace(ansi.Cut(ansi.Strip(l), outer, outer+indent)) != ""
		switch {
		case atIndent && prevText:
			lines[i+1] = insertSpaces(l, outer, indent)
		case !atIndent && seen < n:
			seen++
			prevText = hasText(l, outer)
		default:
			return i // past the block
		}
	}
	return i
}

// hasText reports whether l shows anything after its first outer cells.
func hasText(l string, outer int) bool {
	return strings.TrimSpace(ansi.Cut(ansi.Strip(l), outer, 1<<20)) != ""
}

// insertSpaces puts n spaces at cell column col of l, before any style that
// starts there.
func insertSpaces(l string, col, n int) string {
	at := cellOffset(l, col)
	return l[:at] + strings.Repeat(" ", n) + l[at:]
}

// cellOffset is the byte offset in s where cell column col starts (escape
// sequences take no cells).
func cellOffset(s string, col int) int {
	w := 0
	for i := 0; i < len(s); {
		if w >= col {
			return i
		}
		if s[i] == 0x1b {
			n, _ := escapeLen(s[i:])
			i += max(n, 1)
			continue
		}
		g, gw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		i += max(len(g), 1)
		w += gw
	}
	return len(s)
}
