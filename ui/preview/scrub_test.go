package preview

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A sixel picture that leaves the screen is erased by text written over
// it, not by the renderer's ECH and EL (which a real xterm 379 undoes when
// it repaints its window): the blank cells of its columns, on every line
// (the renderer may have scrolled it), are concealed spaces in every frame
// until one of them has been drawn (Draw of an unchanged generation), and
// plain spaces after.
func TestStageScrubsWhereASixelLeft(t *testing.T) {
	r := renderStagedFor(t, Sixel)
	st := NewStage(Sixel)
	st.Register(r)
	st.Frame(screen(r, 3))
	gen, _ := st.Due()
	if len(sixelRE.FindAllString(st.Draw(gen), -1)) != 1 {
		t.Fatal("the picture was not drawn")
	}
	x0, x1 := 4+r.X, 4+r.X+r.Cols

	// Scrolled away: its cells hold the text of other lines and blanks.
	gone := screen(r, 40)
	for range 2 { // every frame until one has been drawn
		out, _ := st.Frame(gone)
		noMarkers(t, gone, out)
		in, got := strings.Split(gone, "\n"), strings.Split(out, "\n")
		for y := range got {
			want := ansi.Cut(in[y], 0, x0) + scrubWithin(ansi.Cut(in[y], x0, x1), 0, x1-x0) + ansi.Cut(in[y], x1, 60)
			if got[y] != want {
				t.Fatalf("line %d is %q, want %q", y, got[y], want)
			}
		}
	}
	gen, due := st.Due()
	if !due {
		t.Fatal("scrubbed cells are not due for a draw")
	}
	if seq := st.Draw(gen); seq != "" {
		t.Errorf("a draw with no picture wrote %q", seq)
	}
	if out, _ := st.Frame(gone); out != gone {
		t.Errorf("after the draw the frame still differs: %q", out)
	}
	if _, due := st.Due(); due {
		t.Error("still due after the scrubbed frame was drawn")
	}
}

// A picture that moves (the transcript scrolled) leaves its columns
// scrubbed where the new place does not cover them; a draw of an older
// generation keeps them scrubbed. Columns of two pictures that left are
// one span.
func TestStageScrubsWhereASixelMovedFrom(t *testing.T) {
	r := renderStagedFor(t, Sixel)
	st := NewStage(Sixel)
	st.Register(r)
	st.Frame(screen(r, 3))
	gen, _ := st.Due()
	st.Draw(gen)

	out, _ := st.Frame(screen(r, 1)) // two lines up
	lines := strings.Split(out, "\n")
	old := 3 + r.Y + r.Rows - 1 // the old last row, now text and blanks
	if got := ansi.Cut(lines[old], 4+r.X, 4+r.X+r.Cols); !strings.Contains(got, scrubbed) || strings.Contains(strings.ReplaceAll(got, scrubbed, ""), " ") {
		t.Errorf("the old last row's cells are %q, want concealed spaces", got)
	}
	gen, _ = st.Due()
	if st.Draw(gen-1) != "" || !strings.Contains(strings.Split(first(st.Frame(screen(r, 1))), "\n")[old], scrubbed) {
		t.Error("a stale draw ended the scrubbing")
	}
	gen, _ = st.Due()
	if seq := st.Draw(gen); len(sixelRE.FindAllString(seq, -1)) != 1 {
		t.Errorf("the moved picture was not drawn: %q", seq[:min(len(seq), 60)])
	}
	out, _ = st.Frame(screen(r, 1))
	if got := strings.Split(out, "\n")[old]; strings.Contains(got, scrubbed) {
		t.Errorf("after the draw the old row is still scrubbed: %q", got)
	}
}

func first(a, _ string) string { return a }

func TestLeaveMergesSpans(t *testing.T) {
	st := NewStage(Sixel)
	for _, p := range []Placement{{X: 10, Cols: 5}, {X: 30, Cols: 4}, {X: 12, Cols: 10}, {X: 10, Cols: 5}, {X: 22, Cols: 1}} {
		st.leave(p)
	}
	if want := []colSpan{{X: 10, W: 13}, {X: 30, W: 4}}; !slices.Equal(st.scrub, want) {
		t.Errorf("spans %v, want %v", st.scrub, want)
	}
}

// Only plain spaces within the cells asked for change; styles, wide
// characters, the no-break spaces of drawn pictures and the text around
// are kept.
func TestScrubWithin(t *testing.T) {
	line := "\x1b[31mab  界 \x1b[m " + nbsp + " cd  "
	got := scrubWithin(line, 2, 9)
	s := scrubbed
	want := "\x1b[31mab" + s + s + "界" + s + "\x1b[m" + s + nbsp + " cd  "
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if ansi.StringWidth(got) != ansi.StringWidth(line) {
		t.Errorf("width %d became %d", ansi.StringWidth(line), ansi.StringWidth(got))
	}
}
