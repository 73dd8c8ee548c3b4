package mdstream

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"
)

// testStyles are glamour's own built-in styles: theme-neutral, and between
// them they cover no-colour output, highlighted code (chroma) and indent
// tokens.
func testStyles() map[string]ansi.StyleConfig {
	return map[string]ansi.StyleConfig{
		"notty": *styles.DefaultStyles["notty"],
		"dark":  *styles.DefaultStyles["dark"],
		"light": *styles.DefaultStyles["light"],
	}
}

func newTestRenderer(t testing.TB, width int, style string) *Renderer {
	t.Helper()
	r, err := NewRenderer(width, testStyles()[style])
	if err != nil {
		t.Fatalf("NewRenderer(%d, %s): %v", width, style, err)
	}
	return r
}

// corpus returns the test documents from testdata.
func corpus(t testing.TB) map[string]string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test documents: %v", err)
	}
	out := make(map[string]string, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// plain strips colours from every line.
func plain(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = xansi.Strip(l)
	}
	return out
}

// visible is the part of a streamed prefix that a streaming Doc renders:
// all of it, except a last line that would flash as something it is not
// yet. Written from the package documentation, separately from
// Doc.tailEnd:
//   - a partial line of up to three spaces, then only backticks or only
//     tildes (a code fence being typed);
//   - a last line starting with a | (after up to three spaces) under a
//     line without a | (a table header, maybe);
//   - a partial line of only |, -, :, spaces and tabs, with a |, under a
//     line with a | (a delimiter row): with that line too when the line
//     above it has no | (the header and its delimiter row).
//
// (A Doc never holds back text of blocks it has already finished; the test
// documents do not reach that case.)
func visible(prefix string) string {
	lines := strings.SplitAfter(prefix, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // prefix ends with a newline
	}
	if len(lines) == 0 {
		return prefix
	}
	n := len(lines)
	partial := !strings.HasSuffix(prefix, "\n")
	text := func(i int) string {
		if i < 0 {
			return ""
		}
		return strings.TrimRight(lines[i], "\r\n")
	}
	cut := func(i int) string { return strings.Join(lines[:i], "") }
	last := text(n - 1)
	indent := len(last) - len(strings.TrimLeft(last, " "))
	body := strings.TrimLeft(last, " ")
	if partial && indent <= 3 && body != "" && (strings.Trim(body, "`") == "" || strings.Trim(body, "~") == "") {
		return cut(n - 1)
	}
	if indent <= 3 && strings.HasPrefix(body, "|") && !strings.Contains(text(n-2), "|") {
		return cut(n - 1)
	}
	if partial && strings.Trim(last, "|-: \t") == "" && strings.Contains(last, "|") && strings.Contains(text(n-2), "|") {
		if n >= 2 && !strings.Contains(text(n-3), "|") {
			return cut(n - 2)
		}
		return cut(n - 1)
	}
	return prefix
}

// firstDiff describes where two line slices differ.
func firstDiff(got, want []string) string {
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("length: got %d lines, want %d", len(got), len(want))
}

func itoa(i int) string { return fmt.Sprint(i) }

func readFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}

// fullOracle reports whether the exhaustive comparisons run: every corpus
// document streamed byte by byte and in several delta sizes, in several
// styles and widths, each frame compared with a whole render (quadratic in
// the document's length, about 20 s here). With -short or -race (the race
// detector slows glamour tenfold; "go test -race ./..." is the README's and
// CI's command) a reduced matrix runs, which still goes through every
// open-fence, table and reference path. CI runs the full oracle once,
// without -race:
//
//	go test -count=1 -run 'TestStreaming' ./ui/mdstream/
func fullOracle() bool { return !testing.Short() && !raceOn }

// NewRenderer is NewRendererWith without layout options.
func NewRenderer(width int, style ansi.StyleConfig) (*Renderer, error) {
	return NewRendererWith(width, style, Options{})
}

// NewDoc returns a Doc holding md (which may be empty).
func NewDoc(md string) *Doc {
	d := &Doc{}
	d.Append(md)
	return d
}
