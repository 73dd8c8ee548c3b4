package mdstream

import (
	"strings"
	"testing"
)

// wrapDoc has what glamour's word wrap broke badly (issue 15 §3): names
// with hyphens and dots, paths, punctuation after code spans and links, in
// paragraphs, lists, nested lists, quotes and headings.
const wrapDoc = `Install wl-clipboard and demo-vision, then run ` + "`wl-copy`" + ` now; see docs.example.com for the rest. Also /usr/local/share/parley/config.toml is a path, and v1.2.3 a version.

Call ` + "`foo()`" + `. Then ` + "`bar()`" + `; then **bold**. And _it_; and [link](https://example.com/a-b), run ` + "`ls -la`" + ` now.

- A list item with text that goes on and on, with commas; semicolons. Use wl-clipboard here.
  - nested item with a long text that wraps at the width of the line; really.
  - another one mentioning demo-vision, docs.example.com and file_name.go, twice: demo-vision.

> A quoted paragraph that goes on for a while; it has punctuation, commas; and wl-clipboard, demo-vision.
>
> > Nested quote with docs.example.com; and more text to wrap around the line.

1. Numbered item text that is long enough to wrap around the line once or twice, yes, see docs.example.com/a-b.

### A heading about wl-clipboard and demo-vision that is long
`

// wrapNames are words that must never be broken while they fit a line.
var wrapNames = []string{"wl-clipboard", "demo-vision", "docs.example.com", "/usr/local/share/parley/config.toml",
	"v1.2.3", "file_name.go", "wl-copy", "https://example.com/a-b", "docs.example.com/a-b."}

// TestWrapKeepsWords: at every width, no line holds only punctuation, a
// name with hyphens or dots (or a path) that fits the line is never broken,
// and inline code has one space on each side where the text has one and
// none before the punctuation after it.
func TestWrapKeepsWords(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for w := 24; w <= 100; w++ {
			r := themeRenderer(t, w, noColor)
			lines := plain(r.Render(wrapDoc))
			text := strings.Join(lines, "\n")
			for i, l := range lines {
				// A quote's lines all carry its bar: none of its text is
				// wrapped again onto a line of its own.
				if i > 0 && strings.HasPrefix(lines[i-1], "│") && strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "│") {
					t.Fatalf("width %d (colour %v): line %d, %q, lost the quote's bar:\n%s", w, !noColor, i, l, text)
				}
				body := strings.TrimLeft(l, " │•")
				if body != "" && onlyPunct(strings.TrimSpace(body)) && !strings.ContainsAny(body, "─") {
					t.Fatalf("width %d (colour %v): line %d holds only %q:\n%s", w, !noColor, i, body, text)
				}
			}
			words := strings.Fields(text)
			for _, name := range wrapNames {
				// Room in the deepest block it is in: two nesting
				// levels and a bullet.
				if len(name)+6 > w {
					continue
				}
				found := false
				for _, word := range words {
					if strings.Contains(strings.Trim(word, "`"), strings.TrimSuffix(name, ".")) {
						found = true
						break
					}
				}
				if !found {
					t.Fatalf("width %d (colour %v): %q is broken:\n%s", w, !noColor, name, text)
				}
			}
			squashed := strings.Join(words, " ")
			for _, want := range codeSpacing(noColor) {
				if !strings.Contains(strings.ReplaceAll(text, "\n", " "), want) && !strings.Contains(squashed, want) {
					t.Fatalf("width %d (colour %v): %q is not shown so:\n%s", w, !noColor, want, text)
				}
			}
		}
	}
}

// codeSpacing is how code spans must show: with colour the padding stands
// for the space beside the code (and none is added before punctuation);
// without colour the backticks show and the spaces stay as written.
func codeSpacing(noColor bool) []string {
	if noColor {
		return []string{"Call `foo()`. Then `bar()`; then", "run `ls -la` now."}
	}
	return []string{"Call foo(). Then bar(); then", "run ls -la now."}
}

// TestWrapNoDoubleSpaces: a padded code span never shows two spaces on a
// side, wherever the line breaks.
func TestWrapNoDoubleSpaces(t *testing.T) {
	for w := 16; w <= 60; w++ {
		r := themeRenderer(t, w, false)
		for _, l := range plain(r.Render("Run `go test` then `go vet` and read `the output` carefully, then `fix it`.")) {
			if strings.Contains(strings.TrimSpace(l), "  ") {
				t.Fatalf("width %d: two spaces in %q", w, l)
			}
		}
	}
}

func TestOnlyPunct(t *testing.T) {
	for s, want := range map[string]bool{".": true, ";": true, "|": true, "—": true, "a.": false, "1": false, "é": false} {
		if onlyPunct(s) != want {
			t.Errorf("onlyPunct(%q) = %v", s, !want)
		}
	}
}
