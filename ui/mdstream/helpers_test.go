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
// all of it, except a partial last line that may be the start of a table
// delimiter row (only |, -, :, spaces and tabs, with a |) right under a
// line containing a |. Written from the package documentation, separately
// from Doc.tailEnd.
func visible(prefix string) string {
	i := strings.LastIndexByte(prefix, '\n')
	if i < 0 || i == len(prefix)-1 {
		return prefix
	}
	last := prefix[i+1:]
	if strings.Trim(last, "|-: \t") != "" || !strings.Contains(last, "|") {
		return prefix
	}
	prevStart := strings.LastIndexByte(prefix[:i], '\n') + 1
	if !strings.Contains(prefix[prevStart:i], "|") {
		return prefix
	}
	return prefix[:i+1]
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
