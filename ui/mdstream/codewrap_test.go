package mdstream

import (
	"strings"
	"testing"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"
)

const longCode = "fmt.Println(\"a very long line of code that goes past the edge of the screen\")"

// codeRows returns the plain lines of a rendering that hold the given
// words, in order, from the first line holding first to the one holding
// last.
func codeRows(t *testing.T, lines []string, first, last string) []string {
	t.Helper()
	p := plain(lines)
	from, to := -1, -1
	for i, l := range p {
		if from < 0 && strings.Contains(l, first) {
			from = i
		}
		if from >= 0 && strings.Contains(l, last) {
			to = i
			break
		}
	}
	if from < 0 || to < 0 {
		t.Fatalf("%q … %q not found in\n%s", first, last, strings.Join(p, "\n"))
	}
	return p[from : to+1]
}

func leading(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// TestWrappedCodeKeepsIndent: glamour word-wraps a code line wider than the
// width after indenting it, so its continuation lines started at the left
// edge; they now stand under the code, in a finished reply, while it
// streams (an open fence) and inside a quote.
func TestWrappedCodeKeepsIndent(t *testing.T) {
	md := "Code:\n\n```go\n" + longCode + "\nx := 1\n```\n\n- a list right after\n\nand a paragraph\nof two lines.\n"
	for _, style := range []string{"notty", "dark"} {
		r := newTestRenderer(t, 38, style)
		indent := r.codeIndent
		if indent == 0 {
			t.Fatalf("%s: the style has no code indent; the test needs one", style)
		}
		check := func(what string, lines []string) {
			t.Helper()
			rows := codeRows(t, lines, "fmt.Println", "x := 1")
			if len(rows) < 3 {
				t.Fatalf("%s/%s: the code line did not wrap at 38 cells:\n%s", style, what, strings.Join(rows, "\n"))
			}
			want := leading(rows[0])
			for _, l := range rows {
				if leading(l) != want {
					t.Errorf("%s/%s: a code row lost the block's indent of %d:\n%s", style, what, want, strings.Join(rows, "\n"))
					break
				}
				if w := len([]rune(l)); w > 38 {
					t.Errorf("%s/%s: %q is %d cells, wider than 38", style, what, l, w)
				}
			}
			joined := strings.Join(strings.Fields(strings.Join(rows, " ")), " ")
			if !strings.Contains(joined, longCode) {
				t.Errorf("%s/%s: the code reads %q, want it to hold %q", style, what, joined, longCode)
			}
			// What follows the block is not taken for a continuation.
			p := plain(lines)
			for _, l := range p {
				for _, s := range []string{"a list right after", "and a paragraph", "of two lines."} {
					if strings.Contains(l, s) && leading(l) >= want && !strings.HasPrefix(strings.TrimSpace(l), "•") {
						t.Errorf("%s/%s: %q after the block was indented like code: %q", style, what, s, l)
					}
				}
			}
			for _, l := range lines {
				if strings.Contains(l, codeMark) {
					t.Fatalf("%s/%s: the code mark reached a line: %q", style, what, l)
				}
			}
		}
		check("finished", r.Render(md))

		// Streaming: the fence still open, then closed.
		d := NewDoc("Code:\n\n```go\n" + longCode + "\nx := 1\n")
		check("open fence", d.Lines(r))
		d.Append("```\n\n- a list right after\n\nand a paragraph\nof two lines.\n")
		d.Finish()
		check("closed while streaming", d.Lines(r))

		q := r.Render("> quoted:\n>\n>     " + longCode + "\n>     x := 1\n")
		rows := codeRows(t, q, "fmt.Println", "x := 1")
		if len(rows) < 3 {
			t.Fatalf("%s/quote: the code line did not wrap:\n%s", style, strings.Join(rows, "\n"))
		}
		// The quote's bar ("│" or "|") stays first; the code indent
		// follows it.
		afterBar := func(l string) (string, bool) {
			i := strings.IndexAny(l, "│|")
			if i < 0 || strings.TrimSpace(l[:i]) != "" {
				return "", false
			}
			_, n := utf8.DecodeRuneInString(l[i:])
			return l[i+n:], true
		}
		first, _ := afterBar(rows[0])
		for _, l := range rows[1:] {
			if rest, ok := afterBar(l); !ok || leading(rest) != leading(first) {
				t.Errorf("%s/quote: continuation %q is not indented like %q", style, l, rows[0])
			}
		}
	}
}

// TestCodeMarkCannotBeForged: a source holding the mark character (text
// that skipped termsafe) renders without it and without shifting lines.
func TestCodeMarkCannotBeForged(t *testing.T) {
	r := newTestRenderer(t, 38, "notty")
	md := "para " + codeMark + "text\n\n```\n" + codeMark + longCode + "\n```\n"
	lines := r.Render(md)
	for _, l := range lines {
		if strings.Contains(l, codeMark) {
			t.Fatalf("the mark reached a line: %q", l)
		}
	}
	if got := strings.Join(plain(lines), "\n"); !strings.Contains(got, "para \uFFFDtext") {
		t.Fatalf("the forged mark in text was not replaced:\n%s", got)
	}
}

// TestFixCodeWrapsStyledMark: the mark glamour wraps in the enclosing
// block's style goes with its style, and the prefix before it (a quote's
// bar) decides where the indent goes back.
func TestFixCodeWrapsStyledMark(t *testing.T) {
	in := strings.Join([]string{
		"│ \x1b[3m \x1b[m\x1b[3m" + codeMark + "\x1b[mcode line that",
		"│ continues here",
		"│ \x1b[3m \x1b[mnext",
		"│",
		"│ quoted text",
		"│ goes on",
	}, "\n")
	want := []string{
		"│ \x1b[3m \x1b[mcode line that",
		"│  continues here",
		"│ \x1b[3m \x1b[mnext",
		"│",
		"│ quoted text",
		"│ goes on",
	}
	if got := strings.Split((&Renderer{codeIndent: 1}).fixCode(in, []codeInfo{{lines: 2}}, 0), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fixCodeWraps:\n got  %q\n want %q", got, want)
	}
}

// TestCodeIndentWiderThanTheScreen: a code line indented past the width
// (eight tabs at 30 columns, a fuzz finding) is cut inside its
// indentation: no line is wider than the screen and its text is shown.
func TestCodeIndentWiderThanTheScreen(t *testing.T) {
	r := newTestRenderer(t, 30, "dark")
	for _, md := range []string{"\t\t\t\t\t\t\t\tx*", "```\n" + strings.Repeat(" ", 70) + "deep()\n```\n"} {
		lines := r.Render(md)
		for _, l := range lines {
			if w := xansi.StringWidth(l); w > 30 {
				t.Fatalf("%q: a line is %d cells wide at 30 columns: %q", md, w, l)
			}
		}
		flat := strings.Join(plain(lines), "")
		if want := strings.TrimSpace(strings.Trim(md, "`\n\t ")); !strings.Contains(strings.ReplaceAll(flat, " ", ""), strings.ReplaceAll(want, " ", "")) {
			t.Fatalf("%q: the code's text is not shown whole: %q", md, flat)
		}
	}
}
