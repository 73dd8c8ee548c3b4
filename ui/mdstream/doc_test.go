package mdstream

import (
	"slices"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

func TestAppendLinesFinish(t *testing.T) {
	r := newTestRenderer(t, 40, "notty")
	d := &Doc{}
	if d.Finished() || d.Len() != 0 {
		t.Fatalf("zero Doc: finished=%v len=%d", d.Finished(), d.Len())
	}
	d.Append("Hello ")
	d.Append("")
	d.Append("**world**")
	if _, ok := d.Cached(r); ok {
		t.Fatal("Cached reported lines before any Lines call")
	}
	lines := d.Lines(r)
	if got := strings.Join(plain(lines), "\n"); !strings.Contains(got, "Hello **world**") {
		t.Fatalf("Lines = %q, want the text with notty's emphasis markers", got)
	}
	if c, ok := d.Cached(r); !ok || !slices.Equal(c, lines) {
		t.Fatal("Cached after Lines did not return the same lines")
	}
	before := r.Renders()
	if again := d.Lines(r); !slices.Equal(again, lines) || r.Renders() != before {
		t.Fatalf("Lines without a change rendered again (%d renders)", r.Renders()-before)
	}
	d.Append(" again")
	if _, ok := d.Cached(r); ok {
		t.Fatal("Cached still reported lines after Append")
	}
	d.Finish()
	if !d.Finished() {
		t.Fatal("Finish did not mark the Doc finished")
	}
	if got, want := d.Source(), "Hello **world** again"; got != want {
		t.Fatalf("Source = %q, want %q", got, want)
	}
	if got, want := d.Lines(r), r.Render(d.Source()); !slices.Equal(got, want) {
		t.Fatalf("after Finish: %s", firstDiff(got, want))
	}
	d.Append("\n\nMore.")
	if d.Finished() {
		t.Fatal("Append after Finish did not reopen the Doc")
	}
	if got := strings.Join(plain(d.Lines(r)), "\n"); !strings.Contains(got, "More.") {
		t.Fatalf("text appended after Finish is missing: %q", got)
	}
	if nd := NewDoc("# Title"); nd.Source() != "# Title" {
		t.Fatalf("NewDoc source = %q", nd.Source())
	}
}

// TestWidthBound: no line is wider than the renderer's width, measured
// as the terminal will (wide CJK, emoji sequences, combining marks, tabs).
func TestWidthBound(t *testing.T) {
	docs := corpus(t)
	docs["wide"] = strings.Repeat("漢字かなカナ😀👍🏽👨‍👩‍👧🇫🇷 e\u0301a\u0308 ", 30) + "\n\n" +
		"| 列 | 😀 |\n|---|---|\n| 長い長い長い長い長い長い長い長い長い長い | ✅✅✅✅✅✅✅✅✅✅ |\n\n" +
		"```\n\tTabbed\t\tcode\twith\ttabs\tthat\tgoes\ton\tand\ton\tand\ton\n```\n" +
		"averyveryveryveryveryveryveryveryveryveryveryveryverylongwordwithoutanyspaces\n"
	widths, styleNames := []int{10, 23, 40, 80}, []string{"dark", "notty"}
	if !fullOracle() {
		widths, styleNames = []int{10, 40}, []string{"dark"}
	}
	for _, w := range widths {
		for _, sname := range styleNames {
			r := newTestRenderer(t, w, sname)
			for name, md := range docs {
				d := &Doc{}
				for i := 0; i < len(md); i += 97 {
					d.Append(md[i:min(i+97, len(md))])
					checkWidth(t, name, d.Lines(r), w)
				}
				d.Finish()
				checkWidth(t, name, d.Lines(r), w)
			}
		}
	}
}

func checkWidth(t *testing.T, name string, lines []string, w int) {
	t.Helper()
	for i, l := range lines {
		if xansi.StringWidth(l) > w || lipgloss.Width(l) > w {
			t.Fatalf("%s at width %d: line %d is %d cells: %q", name, w, i, xansi.StringWidth(l), l)
		}
		if strings.ContainsRune(l, '\t') {
			t.Fatalf("%s: line %d keeps a tab: %q", name, i, l)
		}
	}
}

// hostile is Markdown with links of every kind and raw control sequences
// in link targets, titles, alt text, HTML and text (as if the caller had
// not sanitised it).
const hostile = "A [link](https://example.com \"title \x1b]52;c;ZXZpbA==\x07\") and <https://auto.example> " +
	"and www.bare.example and <mail@example.com> and ![alt \x1b]0;pwned\x07](https://img.example/x.png \"t\").\n\n" +
	"Ref [r] and [inline](javascript:alert(1)).\n\n[r]: https://ref.example/\x1b]8;;https://evil\x1b\\ \"ti\x1btle\"\n\n" +
	"<a href=\"https://html.example\">html link</a>\n\n<div title=\"\x1bP1$qm\x1b\\\">block \x1b_apc\x1b\\</div>\n\n" +
	"Text with \x1b[2J clear, \x1b[10;10H move, \x1bc reset, \x9b31m C1 CSI, \u009d0;t\u009c C1 OSC, \x1b]7;file:///etc\x07 cwd.\n\n" +
	"| [t](https://table.example) | <https://cell.example> |\n|---|---|\n| ![i](https://i.example) | x |\n"

// TestNoTerminalSequencesButSGR: glamour v2.0.1 writes OSC 8 hyperlinks
// for links and autolinks (checked below, so this test would notice a
// glamour that stops); no line of ours keeps any sequence but SGR.
func TestNoTerminalSequencesButSGR(t *testing.T) {
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(testStyles()["dark"]), glamour.WithWordWrap(60))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tr.Render(hostile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(raw, "\x1b]8;") {
		t.Fatal("glamour no longer writes OSC 8 hyperlinks: revisit cleanLine's reason")
	}
	for _, sname := range []string{"dark", "notty"} {
		r := newTestRenderer(t, 60, sname)
		d := &Doc{}
		for i := 0; i < len(hostile); i += 13 {
			d.Append(hostile[i:min(i+13, len(hostile))])
			assertOnlySGR(t, d.Lines(r))
		}
		d.Finish()
		lines := d.Lines(r)
		assertOnlySGR(t, lines)
		assertOnlySGR(t, r.Render(hostile))
		text := strings.Join(plain(lines), "\n")
		for _, want := range []string{"https://example.com", "https://auto.example", "html link", "clear,"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q missing from the output: text must survive the cleaning", sname, want)
			}
		}
	}
}

func assertOnlySGR(t *testing.T, lines []string) {
	t.Helper()
	for i, l := range lines {
		for j := 0; j < len(l); j++ {
			c := l[j]
			if c == 0x1b {
				n, sgr := escapeLen(l[j:])
				if !sgr {
					t.Fatalf("line %d keeps a non-SGR sequence %q: %q", i, l[j:j+n], l)
				}
				j += n - 1
				continue
			}
			if c < 0x20 || c == 0x7f {
				t.Fatalf("line %d keeps control byte %#x: %q", i, c, l)
			}
		}
		for _, r := range l {
			if r >= 0x80 && r <= 0x9f {
				t.Fatalf("line %d keeps C1 control %U: %q", i, r, l)
			}
		}
		if strings.Contains(l, "\x1b]") || strings.Contains(l, "\x1bP") || strings.Contains(l, "\x1b_") {
			t.Fatalf("line %d keeps an OSC/DCS/APC introducer: %q", i, l)
		}
	}
}

func TestCleanLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"  trailing   ", "  trailing"},
		{"\x1b[1mbold\x1b[m   \x1b[38;5;252m \x1b[m", "\x1b[1mbold\x1b[m"},
		{"\x1b]8;id=1;https://x\x07link\x1b]8;;\x07", "link"},
		{"\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"a\x1b[2Jb\x1b[?25lc", "abc"},
		{"a\tb", "a   b"},
		{"漢\tb", "漢  b"},
		{"bell\x07 del\x7f cr\r", "bell del cr"},
		{"c1\u009b31m", "c131m"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
	}
	for _, c := range cases {
		if got := cleanLine(c.in, 80); len(got) != 1 || got[0] != c.want {
			t.Errorf("cleanLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := cleanLine("0123456789abc", 5); !slices.Equal(got, []string{"01234", "56789", "abc"}) {
		t.Errorf("over-wide line = %q, want it hard-wrapped at 5", got)
	}
	// An indented line (code) keeps its indent on the wrapped parts, unless
	// the indent would take more than half the width.
	if got := cleanLine("  0123456789", 6); !slices.Equal(got, []string{"  0123", "  4567", "  89"}) {
		t.Errorf("over-wide indented line = %q, want the indent on every part", got)
	}
	if got := cleanLine("\x1b[31m  \x1b[m0123456789", 6); !slices.Equal(plain(got), []string{"  0123", "  4567", "  89"}) {
		t.Errorf("over-wide styled indented line = %q, want the indent on every part", got)
	}
	if got := cleanLine("    0123", 6); !slices.Equal(got, []string{"    01", "23"}) {
		t.Errorf("deeply indented line = %q, want no indent repeated", got)
	}
}

// TestFinishedBlocksRenderedOnce: every finished run of blocks is rendered
// once per renderer; each frame renders only the tail (and the fence chunk
// that just completed).
func TestFinishedBlocksRenderedOnce(t *testing.T) {
	md, err := readFile("testdata/basics.md")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRenderer(t, 60, "dark")
	d := &Doc{}
	for i := 0; i < len(md); i += 11 {
		before := d.Stats()
		d.Append(md[i:min(i+11, len(md))])
		d.Lines(r)
		after := d.Stats()
		if got, max := after.BlockRenders-before.BlockRenders, after.Cuts-before.Cuts; got > max {
			t.Fatalf("frame at %d: %d block renders for %d new blocks", i, got, max)
		}
		if got := after.TailRenders - before.TailRenders; got > 2 {
			t.Fatalf("frame at %d: %d tail renders", i, got)
		}
	}
	d.Finish()
	d.Lines(r)
	st := d.Stats()
	if st.Blocks < 15 {
		t.Fatalf("only %d finished blocks in basics.md: the splitting is not working", st.Blocks)
	}
	if st.BlockRenders != st.Blocks {
		t.Fatalf("%d block renders for %d blocks", st.BlockRenders, st.Blocks)
	}
	// Another renderer (a resize): the finished message is rendered whole,
	// once.
	r2 := newTestRenderer(t, 33, "dark")
	got := d.Lines(r2)
	if st2 := d.Stats(); st2.BlockRenders != st.Blocks || st2.WholeRenders != 1 {
		t.Fatalf("after a resize: %d block and %d whole renders, want %d and 1", st2.BlockRenders, st2.WholeRenders, st.Blocks)
	}
	if !slices.Equal(plain(got), plain(r2.Render(md))) {
		t.Fatal("lines at the new width differ from a whole render")
	}
	n := r2.Renders()
	d.Lines(r2)
	if r2.Renders() != n {
		t.Fatal("Lines at an unchanged width rendered again")
	}
	d.Invalidate()
	d.Lines(r2)
	if st3 := d.Stats(); st3.WholeRenders != 2 {
		t.Fatalf("after Invalidate: %d whole renders, want 2", st3.WholeRenders)
	}
	// Appending to it again renders its blocks, each once.
	d.Append("\n\nA postscript.\n")
	if got, want := plain(d.Lines(r2)), plain(r2.Render(d.Source())); !slices.Equal(got, want) {
		t.Fatalf("after appending to a finished message: %s", firstDiff(got, want))
	}
	if st4 := d.Stats(); st4.BlockRenders-st.BlockRenders != st4.Blocks {
		t.Fatalf("after appending: %d new block renders for %d blocks", st4.BlockRenders-st.BlockRenders, st4.Blocks)
	}
}

// TestTableHoldBack: while a table's header and delimiter row are being
// written the header is never shown as a paragraph of pipes (with or
// without the partial row glued on); the table appears once its delimiter
// row is complete, and its rows show as they come.
func TestTableHoldBack(t *testing.T) {
	md := "Intro.\n\n| Name | Value |\n|:-----|------:|\n| a | 1 |\n| b | 2 |\n\nAfter | with a pipe.\n"
	r := newTestRenderer(t, 60, "notty")
	d := &Doc{}
	sawTable, sawRow := false, false
	for i := 0; i < len(md); i++ {
		d.Append(md[i : i+1])
		text := strings.Join(plain(d.Lines(r)), "\n")
		if strings.Contains(text, "| Name") || strings.Contains(text, "| Value |") {
			t.Fatalf("at byte %d the header shows as a paragraph: %q", i, text)
		}
		for _, l := range strings.Split(text, "\n") {
			cells := strings.Fields(strings.NewReplacer("|", " ", "│", " ").Replace(l))
			if slices.Equal(cells, []string{"a", "1"}) && !strings.Contains(md[:i+1], "| b") {
				sawRow = true // the first row shows before the next one starts
			}
		}
		if strings.Contains(text, "-----") && !strings.Contains(text, "| Name") {
			sawTable = true
		}
	}
	if !sawTable || !sawRow {
		t.Fatalf("while streaming: table %v, first row %v", sawTable, sawRow)
	}
	d.Finish()
	if got, want := d.Lines(r), r.Render(md); !slices.Equal(got, want) {
		t.Fatalf("final: %s", firstDiff(got, want))
	}
	// A finished message shows what glamour shows, partial row included.
	partial := "| a | b |\n|--"
	d2 := NewDoc(partial)
	d2.Finish()
	if got, want := d2.Lines(r), r.Render(partial); !slices.Equal(got, want) {
		t.Fatalf("finished partial table: %s", firstDiff(got, want))
	}
}

// TestFenceHoldBack: while a code fence's backticks are being typed, no
// stray line of backticks shows (neither the opening fence as a paragraph
// nor the closing fence as a code line); once the message is finished,
// what glamour shows for the same text is shown.
func TestFenceHoldBack(t *testing.T) {
	r := newTestRenderer(t, 60, "notty")
	for _, md := range []string{
		"Intro.\n\n```go\nfmt.Println(1)\n```\n\nAfter.\n",
		"Intro.\n~~~\ncode\n~~~\n",
		"``` \nx\n  ```\n",
		"- item\n\n  ```\n  y\n  ```\n",
	} {
		d := &Doc{}
		for i := 0; i < len(md); i++ {
			d.Append(md[i : i+1])
			for k, l := range plain(d.Lines(r)) {
				if s := strings.TrimSpace(l); s != "" && strings.Trim(s, "`~") == "" {
					t.Fatalf("%q at byte %d: line %d is a stray fence %q", md, i, k, l)
				}
			}
		}
		d.Finish()
		if got, want := d.Lines(r), r.Render(md); !slices.Equal(got, want) {
			t.Fatalf("%q final: %s", md, firstDiff(got, want))
		}
	}
	// A finished message ending in backticks shows them, as glamour does.
	d := NewDoc("Text\n\n``")
	d.Finish()
	if got, want := d.Lines(r), r.Render("Text\n\n``"); !slices.Equal(got, want) || !strings.Contains(strings.Join(plain(got), "\n"), "``") {
		t.Fatalf("finished: %q, want %q", got, want)
	}
}
