package mdstream

import (
	"bytes"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
)

// MaxMarkdownBytes is how much of one message goes through the Markdown
// renderer: the message up to the last line that starts within it. The
// rest is shown as plain text, word-wrapped, every character of it. The
// renderer's cost is a few milliseconds and tens of kilobytes per KB, so a
// multi-megabyte reply rendered whole would cost seconds and hundreds of
// megabytes each time the width or the theme changes (issue 18 §1).
const MaxMarkdownBytes = 256 << 10

// markdownEnd is where the Markdown part of a message ends: len(src), or
// for a longer message the start of the last line that starts at or before
// MaxMarkdownBytes (0 when the first line is longer than that).
func markdownEnd(src []byte) int {
	if len(src) <= MaxMarkdownBytes {
		return len(src)
	}
	return bytes.LastIndexByte(src[:MaxMarkdownBytes], '\n') + 1
}

// MarkdownPart returns the part of a message the renderer shows as
// Markdown; the rest of md after it is shown plain.
func MarkdownPart(md string) string {
	return md[:markdownEnd([]byte(md))]
}

// plainLines shows text as it is, word-wrapped to width (cells.Wrap: at
// spaces, a word longer than the line cut after a hyphen or slash): a line
// of the text gives one or more lines, an empty one an empty line. Control
// characters and escape sequences are dropped (the text is sanitised
// before it gets here; this is the same filter every rendered line
// passes), tabs become spaces.
func plainLines(text []byte, width int) []string {
	if len(text) == 0 {
		return nil
	}
	s := string(bytes.TrimSuffix(text, []byte("\n")))
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for l := range strings.SplitSeq(s, "\n") {
		out = appendPlain(out, l, width)
	}
	return out
}

// appendPlain appends the wrapped lines of one line of text.
func appendPlain(dst []string, line string, width int) []string {
	l := filterLine(line)
	if l == "" {
		return append(dst, "")
	}
	if strings.IndexByte(l, 0x1b) >= 0 {
		// filterLine keeps colours; plain text shows none.
		l = xansi.Strip(l)
	}
	return append(dst, cells.Wrap(l, width)...)
}

// plainTail is the plain part of a message past MaxMarkdownBytes while it
// streams: the wrapped lines of its complete lines are kept, only the
// partial last line is wrapped again when more text comes.
type plainTail struct {
	width int
	done  int      // bytes of complete lines wrapped into lines
	lines []string // their lines
}

// render returns the lines of text (the plain part so far) at width.
func (p *plainTail) render(text []byte, width int) []string {
	if p.width != width || p.done > len(text) {
		*p = plainTail{width: width}
	}
	if nl := bytes.LastIndexByte(text, '\n'); nl+1 > p.done {
		p.lines = append(p.lines, plainLines(text[p.done:nl+1], width)...)
		p.done = nl + 1
	}
	if p.done == len(text) {
		return p.lines
	}
	out := make([]string, len(p.lines), len(p.lines)+4)
	copy(out, p.lines)
	return appendPlain(out, string(text[p.done:]), width)
}
