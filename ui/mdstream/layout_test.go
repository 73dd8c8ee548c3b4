package mdstream

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"parley/themes"
)

// chat is the layout the transcript uses (ui/transcript chatLayout).
var chat = Options{CodeNumbers: true, FitTables: true, WholeTables: true, WholeURLs: true, PadCode: true, Literal: true, WholeWords: true}

// themeRenderer is a renderer with a parley theme's style and the chat's
// layout options.
func themeRenderer(t testing.TB, width int, noColor bool) *Renderer {
	t.Helper()
	st := themes.Builtins()[0].Glamour(noColor)
	r, err := NewRendererWith(width, st, chat)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var labelRE = regexp.MustCompile(`\[(\d+)\]( [A-Za-z0-9+#._-]+)?\s*$`)

// labels returns the code labels of a rendering, in order.
func labels(lines []string) []string {
	var out []string
	for _, l := range plain(lines) {
		if m := labelRE.FindStringSubmatch(l); m != nil {
			out = append(out, strings.TrimSpace(m[1]+m[2]))
		}
	}
	return out
}

const codeDoc = "Intro.\n\n```go\nfunc a() {}\n```\n\nText.\n\n```\nplain\n```\n\n" +
	"- item\n\n  ```python\n  print(1)\n  ```\n\n> quoted\n>\n> ```sh\n> ls -l\n> ```\n\n" +
	"    indented\n    code\n\nEnd with `inline` code.\n\n```rust\nfn main() {}\n```\n"

// TestCodeNumbers: every code block is labelled with its number (and its
// language), numbers match CodeBlocks, and a streamed message shows the
// same labels at every frame as a whole render of the same text.
func TestCodeNumbers(t *testing.T) {
	blocks := CodeBlocks(codeDoc)
	want := []string{"func a() {}\n", "plain\n", "print(1)\n", "ls -l\n", "indented\ncode\n", "fn main() {}\n"}
	if !slices.Equal(blocks, want) {
		t.Fatalf("CodeBlocks = %q, want %q", blocks, want)
	}
	r := themeRenderer(t, 60, false)
	got := labels(r.Render(codeDoc))
	wantLabels := []string{"1 go", "2", "3 python", "4 sh", "5", "6 rust"}
	if !slices.Equal(got, wantLabels) {
		t.Fatalf("labels %q, want %q:\n%s", got, wantLabels, strings.Join(plain(r.Render(codeDoc)), "\n"))
	}
	for _, n := range []int{1, 7, 40} {
		d := &Doc{}
		for i := 0; i < len(codeDoc); i += n {
			d.Append(codeDoc[i:min(i+n, len(codeDoc))])
			got := labels(d.Lines(r))
			if ref := labels(r.Render(visible(codeDoc[:min(i+n, len(codeDoc))]))); !slices.Equal(got, ref) {
				t.Fatalf("delta %d at byte %d: labels %q, whole render %q", n, i+n, got, ref)
			}
		}
		d.Finish()
		if got := labels(d.Lines(r)); !slices.Equal(got, wantLabels) {
			t.Fatalf("delta %d finished: %q", n, got)
		}
	}
	// Without the option, no label: glamour's layout.
	plainR := newTestRenderer(t, 60, "dark")
	if got := labels(plainR.Render(codeDoc)); len(got) != 0 {
		t.Fatalf("labels without CodeNumbers: %q", got)
	}
	// Numbers go past 9 (copy any block by number).
	many := strings.Repeat("```\nx\n```\n\n", 12)
	if got := labels(r.Render(many)); len(got) != 12 || got[11] != "12" {
		t.Fatalf("12 blocks labelled %q", got)
	}
}

// TestFitTables: a table is as wide as its content (glamour stretches it
// to the full width), with its alignment; a table that needs the width
// keeps it.
func TestFitTables(t *testing.T) {
	r := themeRenderer(t, 100, false)
	lines := plain(r.Render("| name | size | kind |\n|---|--:|:-:|\n| a.go | 12 | file |\n| long name here | 3 | x |\n"))
	var rows []string
	for _, l := range lines {
		if strings.ContainsAny(l, "│┼") {
			rows = append(rows, strings.TrimRight(l, " "))
		}
	}
	want := []string{
		" name           │ size │ kind",
		"────────────────┼──────┼──────",
		" a.go           │   12 │ file",
		" long name here │    3 │  x",
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("table:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range r.Render("| a |\n|---|\n| b |\n") {
		if strings.ContainsRune(l, '\u2067') || strings.ContainsRune(l, '\u2068') {
			t.Fatalf("a table mark is left in %q", l)
		}
	}
	// A table wider than the width wraps its cells and fills the width.
	wide := "| " + strings.Repeat("word ", 30) + "| " + strings.Repeat("more ", 30) + "|\n|---|---|\n| x | y |\n"
	narrow := themeRenderer(t, 50, false)
	full := 0
	for _, l := range narrow.Render(wide) {
		full = max(full, xansi.StringWidth(l))
	}
	if full < 48 || full > 50 {
		t.Fatalf("a wrapped table is %d wide at width 50", full)
	}
}

// TestWholeURLs: a URL with hyphens that fits a line is not broken at a
// hyphen (glamour's wrap breaks at every one), and shows plain hyphens.
func TestWholeURLs(t *testing.T) {
	url := "https://example.com/a-long-path-with-many-hyphens/and-more-of-them?q=a-b"
	md := "Some words before the link so that it would wrap: " + url + " and <" + url + "x> and [docs](" + url + "y) after."
	for _, w := range []int{74, 80, 100} { // the URLs are 72-74 cells
		r := themeRenderer(t, w, false)
		text := strings.Join(plain(r.Render(md)), "\n")
		for _, u := range []string{url, url + "x", url + "y"} {
			if !strings.Contains(text, u) {
				t.Errorf("width %d: %q is broken or missing:\n%s", w, u, text)
			}
		}
		if strings.Contains(text, nbHyphen) {
			t.Errorf("width %d: a non-breaking hyphen is left in the output", w)
		}
	}
	// A URL longer than the line is cut at the width: nothing can keep it.
	long := "https://example.com/" + strings.Repeat("x", 80)
	r := themeRenderer(t, 40, false)
	if text := strings.Join(plain(r.Render(long)), ""); !strings.Contains(text, long) {
		t.Fatalf("a long URL lost characters: %q", text)
	}
	// Text that holds U+2011 itself is left as it is.
	own := "a\u2011b https://x.example/c-d"
	if text := strings.Join(plain(r.Render(own)), ""); !strings.Contains(text, "a\u2011b") || !strings.Contains(text, "c-d") {
		t.Fatalf("%q", text)
	}
}

// TestPaddedCode: inline code keeps its padding at the start of a line and
// does not show two spaces on each side.
func TestPaddedCode(t *testing.T) {
	md := "Run `go test` then `go vet` and read `the output of the command` carefully before you go on."
	for w := 20; w <= 60; w++ {
		r := themeRenderer(t, w, false)
		lines := r.Render(md)
		for _, l := range lines {
			p := xansi.Strip(l)
			if strings.Contains(strings.TrimRight(p, " "), "  ") {
				t.Fatalf("width %d: a double space in %q", w, p)
			}
			if strings.ContainsRune(l, '\u00a0') {
				t.Fatalf("width %d: a no-break space is left in %q", w, l)
			}
		}
		for _, l := range lines {
			// A line that starts with code starts with its padding: the
			// first cell carries the code's background.
			if s := strings.TrimLeft(xansi.Strip(l), " "); strings.HasPrefix(s, "go test") || strings.HasPrefix(s, "go vet") || strings.HasPrefix(s, "the output") {
				if !strings.Contains(l, "\x1b[") || !strings.HasPrefix(xansi.Strip(l), " ") {
					t.Fatalf("width %d: code at a line start lost its padding: %q", w, l)
				}
			}
		}
	}
	// Without a background (no colour) code keeps its backticks and spaces.
	r := themeRenderer(t, 80, true)
	if got := strings.Join(plain(r.Render(md)), " "); !strings.Contains(got, "Run `go test` then") {
		t.Fatalf("no-colour code spans changed: %q", got)
	}
}

// TestShown: a reply cut off mid-stream shows what a streaming Doc showed:
// no table header as a paragraph of pipes, no stray fence, but a partial
// table row as a row.
func TestShown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Text\n\n| a | b |\n|--", "Text\n\n"},
		{"Text\n\n| a | b |\n", "Text\n\n"},
		{"Text\n\n| a | b |\n|---|---|\n| 1 | tw", "Text\n\n| a | b |\n|---|---|\n| 1 | tw"},
		{"Code:\n``", "Code:\n"},
		{"Plain text", "Plain text"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Shown(c.in); got != c.want {
			t.Errorf("Shown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	r := themeRenderer(t, 60, false)
	rows := 0
	for _, l := range plain(r.Render(Shown(cases[2].in))) {
		if strings.Contains(l, "│") {
			rows++
		}
	}
	if rows != 2 {
		t.Fatalf("a table cut in a row shows %d rows, want 2", rows)
	}
}

// TestChatLayoutStreams: with a parley theme and all layout options, every
// frame of a stream shows what a whole render of the same text shows
// (blank lines at the end aside: a whole render of an open fence ends with
// chroma's line of indentation, which the transcript trims anyway).
func TestChatLayoutStreams(t *testing.T) {
	r := themeRenderer(t, 50, raceOn)
	sizes := []int{3, 29}
	if !fullOracle() {
		sizes = []int{29}
	}
	for name, md := range corpus(t) {
		for _, n := range sizes {
			t.Run(name+"/"+strconv.Itoa(n), func(t *testing.T) {
				d := &Doc{}
				for i := 0; i < len(md); i += n {
					j := min(i+n, len(md))
					d.Append(md[i:j])
					got, want := trimEnd(plain(d.Lines(r))), trimEnd(plain(r.Render(visible(md[:j]))))
					if !slices.Equal(got, want) {
						t.Fatalf("frame ending at byte %d (%q): %s", j, tailOf(md[:j]), firstDiff(got, want))
					}
				}
				d.Finish()
				if got, want := plain(d.Lines(r)), plain(r.Render(md)); !slices.Equal(got, want) {
					t.Fatalf("finished: %s", firstDiff(got, want))
				}
			})
		}
	}
}

func trimEnd(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
