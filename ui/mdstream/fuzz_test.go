package mdstream

import (
	"strings"
	"testing"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"

	"parley/termsafe"
)

// FuzzHoldBack streams any text in deltas of a given size and checks the
// hold-back against its specification (visible, written from the package
// documentation): at every step the Doc shows all of the text but what
// the specification holds back, except that it never holds back text of
// blocks it has already finished; Shown of the whole text is exactly the
// specification. The text that is shown then renders with the chat's
// layout within the width, with nothing but colours.
func FuzzHoldBack(f *testing.F) {
	seeds := []string{
		"Intro.\n\n| Name | Value |\n|:-----|------:|\n| a | 1 |\n",
		"text\n```go\nx\n``",
		"``` \nx\n  ```\n",
		"- item\n\n  ```\n  y\n  ```\n",
		"a | b\n--|-",
		"| h |\n|-",
		"> | q |\n> |--",
		strings.Repeat(">", 30) + " deep",
		strings.Repeat("```\n", 9),
		"~~~\ncode\n~~~~\n\n|x|\n",
		"\r\n| a |\r\n|---|\r\n",
	}
	for _, s := range seeds {
		f.Add(s, uint8(1))
		f.Add(s, uint8(7))
	}
	r, err := NewRendererWith(30, testStyles()["notty"], Options{CodeNumbers: true, FitTables: true, WholeURLs: true, PadCode: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, md string, step uint8) {
		if len(md) > 2048 {
			return
		}
		md = termsafe.Markdown(md) // as the caller does
		if !utf8.ValidString(md) {
			t.Fatalf("the sanitiser returned invalid UTF-8")
		}
		n := int(step%32) + 1
		d := &Doc{}
		p := r.body.Parser()
		for i := 0; i < len(md); i += n {
			j := min(i+n, len(md))
			d.Append(md[i:j])
			d.advance(p, 0)
			end, spec := d.tailEnd(), len(visible(md[:j]))
			if end > j || end < d.stable {
				t.Fatalf("at %d: tail ends at %d (stable %d)", j, end, d.stable)
			}
			if end != spec && !(end == j && spec < d.stable) {
				t.Fatalf("prefix %q: shows %d bytes, the specification %d (stable %d)", md[:j], end, spec, d.stable)
			}
		}
		shown := Shown(md)
		if want := visible(md); shown != want {
			t.Fatalf("Shown(%q) = %q, want %q", md, shown, want)
		}
		for _, l := range r.Render(shown) {
			if w := xansi.StringWidth(l); w > r.Width() {
				t.Fatalf("a line is %d cells wide (width %d): %q", w, r.Width(), l)
			}
			for k := 0; k < len(l); k++ {
				if l[k] == 0x1b {
					m, sgr := escapeLen(l[k:])
					if !sgr {
						t.Fatalf("a line keeps %q: %q", l[k:k+m], l)
					}
					k += m - 1
				} else if l[k] < 0x20 || l[k] == 0x7f {
					t.Fatalf("a line keeps control byte %#x: %q", l[k], l)
				}
			}
		}
	})
}

// FuzzFenceCount: whenever fenceCount is sure of a text's code blocks, it
// counts what the parser finds; the code labels and /copy rest on it.
func FuzzFenceCount(f *testing.F) {
	for _, s := range []string{
		"Text.\n\n```go\nx\n```\n", "````\n```\n````\n", "```\nopen\n", "- a\n  ```\n  b\n",
		"> ```\n> c\n", "    code\n", "<div>\n```\n</div>\n", "a\n```\nb\n```\nc\n~~~\n",
		"```\n\n    indented in a fence\n```\n", "~~~~\n~~~\n~~~~ x\n", "``` a`b\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		if n, ok := fenceCount(md); ok && n != len(CodeBlocks(md)) {
			t.Fatalf("fenceCount(%q) = %d, the parser finds %d", md, n, len(CodeBlocks(md)))
		}
	})
}
