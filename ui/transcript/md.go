package transcript

import (
	"strings"
	"time"

	"charm.land/glamour/v2/ansi"
	xansi "github.com/charmbracelet/x/ansi"

	"parley/ui/mdstream"
)

// chatLayout is what the transcript asks of the Markdown renderer beyond
// glamour's layout: numbered code blocks (the numbers /copy and alt+1…9
// use), tables as wide as their content (or as text when glamour would
// cut their headers), URLs kept on one line, code spans whose padding
// survives a line break, text that looks like HTML shown as written.
var chatLayout = mdstream.Options{CodeNumbers: true, FitTables: true, WholeTables: true, WholeURLs: true, PadCode: true, Literal: true, WholeWords: true}

// syncRenderBytes is the largest finished message rendered on the Update
// goroutine; a larger one shows as plain text until a background render
// (a job) brings its Markdown. glamour takes 2-4 ms per KB here, and a
// frame is 16 ms.
const syncRenderBytes = 4 << 10

// engine renders Markdown at one width and style on the Update goroutine:
// every render is bounded by mdstream.FrameBudget (one that overruns shows
// plain text and is done again by a job).
type engine struct{ r *mdstream.Renderer }

func newEngine(width int, style ansi.StyleConfig, budget time.Duration) *engine {
	r, err := mdstream.NewRendererWith(width, style, chatLayout)
	if err != nil {
		// Only a style that cannot be encoded fails; fall back to a style
		// that can, rather than lose the text.
		r, _ = mdstream.NewRendererWith(width, ansi.StyleConfig{}, chatLayout)
	}
	r.SetBudget(budget, nil)
	r.SetFrameBudget(budget)
	return &engine{r: r}
}

// render renders a whole text now, its code blocks numbered from base+1,
// and returns how many it numbered. It reports false when the render did
// not finish in its budget and the lines are the plain text.
func (e *engine) render(text string, base int) ([]string, int, bool) {
	lines, codes, ok := e.r.RenderFrom(text, base)
	return trimBlank(lines), codes, ok
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
