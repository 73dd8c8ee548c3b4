package mdstream

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// piece is the rendered output of one run of top-level blocks (or of the
// document framing), split into cleaned lines. glamour writes almost every
// block with a final newline; a block that ends mid-line (an HTML block, or
// a style whose heading has no block suffix) leaves its last line open, and
// the next piece continues that line.
type piece struct {
	lines      []string // cleaned lines, without the open last line
	firstRaw   string   // the first raw line, for continuing an open line
	firstLines int      // how many cleaned lines the first raw line gave
	closed     int      // newline-terminated raw lines
	openRaw    string   // the open last raw line
	open       bool
	empty      bool
}

func (p *piece) set(raw string, width int) {
	*p = piece{}
	if raw == "" {
		p.empty = true
		return
	}
	parts := strings.Split(raw, "\n")
	p.firstRaw = parts[0]
	if last := parts[len(parts)-1]; last != "" {
		p.open = true
		p.openRaw = last
	}
	parts = parts[:len(parts)-1]
	p.closed = len(parts)
	p.lines = make([]string, 0, len(parts))
	for i, l := range parts {
		c := cleanLine(l, width)
		if i == 0 {
			p.firstLines = len(c)
		}
		p.lines = append(p.lines, c...)
	}
}

// setPlain makes the piece the source text src shown plain (see
// plainLines): what a run of blocks shows when it could not be rendered.
func (p *piece) setPlain(src []byte, width int) {
	*p = piece{}
	if len(src) == 0 {
		p.empty = true
		return
	}
	first, _, _ := bytes.Cut(src, []byte("\n"))
	p.firstRaw = string(first)
	p.firstLines = len(plainLines(first, width))
	if len(first) == 0 {
		p.firstLines = 1
	}
	p.lines = plainLines(src, width)
	p.closed = len(p.lines)
}

// closeBlank drops an open last line that holds nothing visible. Chroma
// ends its output with a reset after the last newline, so a code block
// rendered on its own ends with an open line of indentation; when the
// block's lines are rendered in chunks, only the last chunk's is real.
func (p *piece) closeBlank() {
	if p.open && strings.TrimSpace(ansi.Strip(p.openRaw)) == "" {
		p.open, p.openRaw = false, ""
	}
}

// joiner concatenates pieces into the document's lines.
type joiner struct {
	out     []string
	pending string
	hasPend bool
	width   int
	indent  string
}

func (j *joiner) init(r *Renderer) {
	j.width = r.width
	j.indent = r.indent
}

func (j *joiner) add(p *piece) {
	if p.empty {
		return
	}
	if !j.hasPend {
		j.out = append(j.out, p.lines...)
		if p.open {
			j.pending, j.hasPend = p.openRaw, true
		}
		return
	}
	// The previous piece left its last line open: in the whole document
	// this piece's first output continues that line, without the margin
	// glamour writes at the start of a line.
	first := strings.TrimPrefix(p.firstRaw, j.indent)
	if p.closed == 0 {
		// A single open line.
		j.pending += first
		return
	}
	j.out = append(j.out, cleanLine(j.pending+first, j.width)...)
	j.hasPend = false
	// The first raw line is now part of the joined line above.
	j.out = append(j.out, p.lines[p.firstLines:]...)
	if p.open {
		j.pending, j.hasPend = p.openRaw, true
	}
}

// addLines adds finished lines (plain text) after what was added.
func (j *joiner) addLines(lines []string) {
	if len(lines) == 0 {
		return
	}
	if j.hasPend {
		j.out = append(j.out, cleanLine(j.pending, j.width)...)
		j.hasPend = false
	}
	j.out = append(j.out, lines...)
}

func (j *joiner) finish() []string {
	if j.hasPend {
		j.out = append(j.out, cleanLine(j.pending, j.width)...)
		j.hasPend = false
	}
	return j.out
}
