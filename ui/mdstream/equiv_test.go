package mdstream

import (
	"slices"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
)

// TestRenderMatchesGlamour: Renderer.Render is glamour's TermRenderer
// output with each line cleaned, except that the continuation of a wrapped
// code line keeps the code block's indent (see fixCode).
func TestRenderMatchesGlamour(t *testing.T) {
	reindented := 0
	for name, md := range corpus(t) {
		for sname, st := range testStyles() {
			for _, w := range []int{24, 80} {
				r := newTestRenderer(t, w, sname)
				tr, err := glamour.NewTermRenderer(glamour.WithStyles(st), glamour.WithWordWrap(w),
					glamour.WithChromaFormatter(themes.ChromaFormatter))
				if err != nil {
					t.Fatal(err)
				}
				out, err := tr.Render(md)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					want = append(want, cleanLine(l, w)...)
				}
				got := r.Render(md)
				// Byte for byte, colours included: with 24-bit colour
				// chroma's output is deterministic.
				if len(got) != len(want) {
					t.Errorf("%s/%s/%d: %s", name, sname, w, firstDiff(got, want))
					continue
				}
				for i := range got {
					if got[i] == want[i] {
						continue
					}
					if !spacesInserted(got[i], want[i], r.codeIndent) {
						t.Errorf("%s/%s/%d: line %d:\n got  %q\n want %q", name, sname, w, i, got[i], want[i])
						break
					}
					reindented++
				}
			}
		}
	}
	if reindented == 0 {
		t.Error("no wrapped code line in the corpus: the test no longer covers continuation indents")
	}
}

// spacesInserted reports whether got is want with n spaces inserted where
// they first differ (tabs after that point expand to other widths, so
// only the words must be the same).
func spacesInserted(got, want string, n int) bool {
	g, w := ansi.Strip(got), ansi.Strip(want)
	if n == 0 || strings.Join(strings.Fields(g), " ") != strings.Join(strings.Fields(w), " ") {
		return false
	}
	p := 0
	for p < len(w) && p < len(g) && g[p] == w[p] {
		p++
	}
	return strings.HasPrefix(g[p:], strings.Repeat(" ", n))
}

// streamAndCompare feeds md to a Doc in deltas of size n and checks every
// frame against a whole render of the visible text, ignoring colours.
func streamAndCompare(t *testing.T, r *Renderer, md string, n int) (exact, frames int) {
	t.Helper()
	d := &Doc{}
	for i := 0; i < len(md); i += n {
		j := min(i+n, len(md))
		d.Append(md[i:j])
		got := d.Lines(r)
		ref := r.Render(visible(md[:j]))
		frames++
		if slices.Equal(got, ref) {
			exact++
			continue
		}
		if g, w := plain(got), plain(ref); !slices.Equal(g, w) {
			t.Fatalf("delta %d, frame ending at byte %d (%q): %s", n, j, tailOf(md[:j]), firstDiff(g, w))
		}
	}
	d.Finish()
	got := d.Lines(r)
	ref := r.Render(md)
	if g, w := plain(got), plain(ref); !slices.Equal(g, w) {
		t.Fatalf("delta %d, after Finish: %s", n, firstDiff(g, w))
	}
	return exact, frames
}

func tailOf(s string) string {
	if len(s) > 40 {
		return "…" + s[len(s)-40:]
	}
	return s
}

// TestStreamingMatchesFullRender is the requirement: at every frame
// of a stream the cached render equals a full render of the same text,
// colour codes aside, for varied documents, delta sizes and widths.
func TestStreamingMatchesFullRender(t *testing.T) {
	// Every document is streamed byte by byte once, and with other delta
	// sizes in other styles and widths.
	type run struct {
		style string
		width int
		sizes []int
	}
	runs := []run{
		{"dark", 30, []int{1}},
		{"dark", 80, []int{4, 61}},
		{"notty", 30, []int{3}},
		{"notty", 80, []int{7, 16}},
	}
	if !fullOracle() {
		// The reduced matrix (see fullOracle): keep every document and
		// both a small and a large delta, but highlight code (dark) only
		// with the large one. Small deltas in a colourless style still go
		// through every open-fence, table and reference path.
		runs = []run{{"notty", 30, []int{5}}, {"dark", 30, []int{61}}}
	}
	for name, md := range corpus(t) {
		for _, rn := range runs {
			r := newTestRenderer(t, rn.width, rn.style)
			for _, n := range rn.sizes {
				t.Run(name+"/"+rn.style+"/"+itoa(rn.width)+"/"+itoa(n), func(t *testing.T) {
					exact, frames := streamAndCompare(t, r, md, n)
					t.Logf("%d of %d frames identical including colours", exact, frames)
				})
			}
		}
	}
}

// TestStreamingLongDocuments streams the benchmark documents (a 20 KB
// answer, a 10 KB code block) with realistic deltas.
func TestStreamingLongDocuments(t *testing.T) {
	if !fullOracle() {
		t.Skip("long: run without -short and -race")
	}
	r := newTestRenderer(t, 80, "dark")
	for _, f := range []string{benchAnswerFile, benchCodeFile} {
		md, err := readFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) { streamAndCompare(t, r, md, 97) })
	}
}

// TestStreamingLongFence streams a fence long enough to be cached in
// chunks, closed and left open, each followed by more text.
func TestStreamingLongFence(t *testing.T) {
	var b strings.Builder
	b.WriteString("Intro.\n\n```python\n")
	for i := 0; i < 3*fenceChunkLines+5; i++ {
		if i%7 == 3 {
			b.WriteString("\n")
			continue
		}
		b.WriteString("def f" + itoa(i) + "(x):\n    return x * " + itoa(i) + "  # a comment that is long enough to wrap at narrow widths\n")
	}
	closed := b.String() + "```\nAfter the fence.\n\n"
	open := b.String()
	r := newTestRenderer(t, 40, "dark")
	sizes := []int{9, 50}
	if raceOn {
		// Chunks are cut and cached the same way in any style; only the
		// colours differ, and the comparison ignores them.
		r = newTestRenderer(t, 40, "notty")
		sizes = []int{9}
	}
	for _, md := range []string{closed, open} {
		for _, n := range sizes {
			streamAndCompare(t, r, md, n)
		}
	}
}

// TestWholeDocument: a message appended in one go is split into blocks
// (each proposal is checked on that block alone, so this is linear) and
// renders as the whole render does, finished or not.
func TestWholeDocument(t *testing.T) {
	r := newTestRenderer(t, 50, "dark")
	for name, md := range corpus(t) {
		d := NewDoc(md)
		if got, want := plain(d.Lines(r)), plain(r.Render(visible(md))); !slices.Equal(got, want) {
			t.Errorf("%s: %s", name, firstDiff(got, want))
		}
		if d.Stats().Blocks < 2 {
			t.Errorf("%s: a whole document was not split into blocks (%d)", name, d.Stats().Blocks)
		}
		d.Finish()
		if got, want := plain(d.Lines(r)), plain(r.Render(md)); !slices.Equal(got, want) {
			t.Errorf("%s finished: %s", name, firstDiff(got, want))
		}
	}
}

// TestUnusualStyle: a style with a document prefix and suffix, headings
// without a block suffix (so they end mid-line and the next block
// continues the line) and an indent token still streams as it renders.
func TestUnusualStyle(t *testing.T) {
	st := testStyles()["notty"]
	st.Document.Prefix = "» "
	st.Document.Suffix = " «"
	tok := "·"
	st.Document.IndentToken = &tok
	st.Heading.BlockSuffix = ""
	r, err := NewRenderer(40, st)
	if err != nil {
		t.Fatal(err)
	}
	for name, md := range corpus(t) {
		t.Run(name, func(t *testing.T) { streamAndCompare(t, r, md, 23) })
	}
}
