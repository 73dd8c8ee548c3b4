package transcript

import (
	"strings"

	"charm.land/glamour/v2/ansi"
	xansi "github.com/charmbracelet/x/ansi"

	"parley/ui/mdstream"
)

// mdDoc is one assistant reply being rendered incrementally: text is only
// appended, Lines returns the whole rendering so far for an engine
// (finished blocks from a cache, only the unfinished tail rendered again),
// Finish renders the tail as final (code highlighted).
type mdDoc interface {
	Append(text string)
	Finish()
	Lines(e mdEngine) []string
}

// mdEngine renders Markdown at one width and style.
type mdEngine interface {
	// NewDoc starts an incremental document.
	NewDoc() mdDoc
	// Render renders a whole text in one go: what a naive transcript does on
	// every frame, and the reference the incremental rendering must match.
	Render(text string) []string
}

// mdstreamEngine is the real engine: package mdstream.
type mdstreamEngine struct{ r *mdstream.Renderer }

func newMdstreamEngine(width int, style ansi.StyleConfig) mdEngine {
	r, err := mdstream.NewRenderer(width, style)
	if err != nil {
		// Only a style that cannot be encoded fails; fall back to a style
		// that can, rather than lose the text.
		r, _ = mdstream.NewRenderer(width, ansi.StyleConfig{})
	}
	return mdstreamEngine{r: r}
}

func (e mdstreamEngine) NewDoc() mdDoc { return &mdstreamDoc{d: mdstream.NewDoc("")} }

func (e mdstreamEngine) Render(text string) []string { return trimBlank(e.r.Render(text)) }

// mdstreamDoc keeps its block structure across engines: after a resize
// only the rendering is done again, not the scanning.
type mdstreamDoc struct{ d *mdstream.Doc }

func (d *mdstreamDoc) Append(text string) { d.d.Append(text) }

func (d *mdstreamDoc) Finish() { d.d.Finish() }

func (d *mdstreamDoc) Lines(e mdEngine) []string {
	return trimBlank(d.d.Lines(e.(mdstreamEngine).r))
}

// trimBlank drops the blank lines glamour's document margin puts above
// and below a message: the transcript spaces messages itself.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func isBlank(s string) bool {
	if strings.IndexByte(s, '\x1b') >= 0 {
		s = xansi.Strip(s)
	}
	return strings.TrimSpace(s) == ""
}
