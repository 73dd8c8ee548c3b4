package mdstream

import "testing"

func TestAcceptCut(t *testing.T) {
	r := newTestRenderer(t, 80, "notty")
	p := r.body.Parser()
	cases := []struct {
		name    string
		a, rest string
		want    bool
	}{
		{"paragraphs", "para\n\n", "next para", true},
		{"heading then text", "# H\n", "text", true},
		{"bullet list continues", "- a\n\n", "- b", false},
		{"ordered list continues across a blank line", "1. a\n\n", "2. b", false},
		{"other bullet starts a new list", "- a\n\n", "* b\n", true},
		{"indented continuation", "- a\n\n", "  more", false},
		{"undecidable marker", "- a\n\n", "1", false},
		{"paragraph after a list", "- a\n\n", "text", true},
		{"definition list may take the next paragraph", "Term\n: def\n\n", "Other", false},
		{"definition after a blank line", "Term\n\n", ": def\n", false},
		{"HTML block writes no final newline", "<div>\nx\n</div>\n\n", "para", false},
		{"inside an open fence", "```\ncode\n\n", "more", false},
		{"inside an HTML comment", "<!--\n\n", "still comment", false},
		{"closed fence, nothing after", "```go\ncode\n```\n", "", true},
		{"fence closed by a line that opens another", "- a\n  ```\n  x\n```\n", "", false},
		{"paragraph, nothing after", "para\n\n", "", false},
		{"fence interrupts a paragraph", "text\n", "```go\n", true},
		{"link definitions only", "[a]: /url\n\n", "text [a]", true},
		{"setext underline after blank is a break", "Title\n\n", "---\n", true},
		{"table then text", "| a |\n|---|\n| 1 |\n\n", "text", true},
	}
	for _, c := range cases {
		if got := acceptCut(p, []byte(c.a), []byte(c.rest)); got != c.want {
			t.Errorf("%s: acceptCut(%q, %q) = %v, want %v", c.name, c.a, c.rest, got, c.want)
		}
	}
}
