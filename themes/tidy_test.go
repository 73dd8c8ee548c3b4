package themes

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"charm.land/glamour/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

func TestTidy(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain padding", "abc   \ndef \n", "abc\ndef\n"},
		{"styled padding collapses", "abc\x1b[38;5;1m \x1b[m\x1b[38;5;1m \x1b[m\n", "abc\x1b[m\n"},
		{"SGR after last reset kept", "a \x1b[1m \x1b[0m \x1b[32m \nb", "a\x1b[0m\x1b[32m\nb"},
		{"tail without reset keeps its SGR", "a \x1b[1m \nb", "a\x1b[1m\nb"},
		{"background spaces stay", "\x1b[48;5;1mab  \x1b[m  ", "\x1b[48;5;1mab  \x1b[m"},
		{"truecolor background stays", "\x1b[38;2;1;2;3;48;2;4;5;6m  \x1b[m", "\x1b[38;2;1;2;3;48;2;4;5;6m  \x1b[m"},
		{"fg colour params are not a background", "\x1b[38;5;48mab  \x1b[m", "\x1b[38;5;48mab\x1b[m"},
		{"reverse spaces stay", "\x1b[7m x \x1b[m   ", "\x1b[7m x \x1b[m"},
		{"underlined spaces stay", "\x1b[4:3mx  \x1b[m", "\x1b[4:3mx  \x1b[m"},
		{"background carries across lines", "\x1b[41mab\n   \x1b[m\nc  ", "\x1b[41mab\n   \x1b[m\nc"},
		{"background ended by 49", "\x1b[41ma\x1b[49m  ", "\x1b[41ma\x1b[49m"},
		{"other escapes are kept", "a \x1b]8;;x\x07 ", "a \x1b]8;;x\x07"},
		{"blank line", "   \n", "\n"},
		{"NBSP is text", "a\u00a0", "a\u00a0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Tidy(tc.in)
			if got != tc.want {
				t.Fatalf("Tidy(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := Tidy(got); again != got {
				t.Fatalf("not idempotent: %q", again)
			}
			sameScreen(t, tc.in, got)
		})
	}
}

func TestTidyNoChangeNoCopy(t *testing.T) {
	in := strings.Repeat("\x1b[1mword\x1b[m text\n", 100)
	if a := testing.AllocsPerRun(20, func() { _ = Tidy(in) }); a != 0 {
		t.Fatalf("allocated %.0f times", a)
	}
	if unsafe.StringData(Tidy(in)) != unsafe.StringData(in) {
		t.Fatal("copied")
	}
}

// TestTidyKeepsWhatTheTerminalShows renders real glamour output (every
// built-in, and glamour's own dark style with its coloured document) into
// terminal cells before and after Tidy: every cell that remains is the same
// glyph with the same style, and every removed cell is an unstyled-looking
// space.
func TestTidyKeepsWhatTheTerminalShows(t *testing.T) {
	md := sampleMarkdown(t)
	var outs []string
	for _, th := range Builtins() {
		r, err := glamour.NewTermRenderer(glamour.WithStyles(th.Glamour(false)), glamour.WithWordWrap(60))
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render(md)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	std, _ := glamour.NewTermRenderer(glamour.WithStandardStyle("dark"), glamour.WithWordWrap(60))
	out, err := std.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, out)
	for _, o := range outs {
		tidy := Tidy(o)
		if len(tidy) >= len(o) {
			t.Errorf("Tidy removed nothing (%d bytes)", len(o))
		}
		sameScreen(t, o, tidy)
	}
}

// sameScreen checks that after is what before shows, minus invisible
// trailing cells.
func sameScreen(t *testing.T, before, after string) {
	t.Helper()
	if msg := screenDiff(before, after); msg != "" {
		t.Fatal(msg)
	}
}

// screenDiff draws both strings into terminal cells and reports the first
// cell that looks different. A space with no background, reverse,
// strike-through or underline looks like an empty cell whatever its other
// attributes.
func screenDiff(before, after string) string {
	w, h := 1, strings.Count(before, "\n")+1
	for _, l := range strings.Split(before, "\n") {
		w = max(w, ansi.StringWidth(l)+1)
	}
	draw := func(s string) *uv.ScreenBuffer {
		buf := uv.NewScreenBuffer(w, h)
		uv.NewStyledString(s).Draw(buf, buf.Bounds())
		return &buf
	}
	bb, ab := draw(before), draw(after)
	blank := func(c *uv.Cell) bool {
		st := c.Style
		return c.Content == " " && st.Bg == nil && st.Attrs&(uv.AttrReverse|uv.AttrStrikethrough) == 0 && st.Underline == uv.UnderlineNone
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			bc, ac := bb.CellAt(x, y), ab.CellAt(x, y)
			if bc == nil || ac == nil {
				continue // the second cell of a wide character
			}
			if blank(bc) && blank(ac) {
				continue
			}
			if bc.Content != ac.Content || !bc.Style.Equal(&ac.Style) {
				return fmt.Sprintf("cell (%d,%d) changed: %q %+v -> %q %+v", x, y, bc.Content, bc.Style, ac.Content, ac.Style)
			}
		}
	}
	return ""
}

func TestScreenDiffDetectsChanges(t *testing.T) {
	for _, c := range [][2]string{
		{"\x1b[41mab  \x1b[m", "\x1b[41mab\x1b[m"}, // background spaces removed
		{"\x1b[1mab\x1b[m", "\x1b[3mab\x1b[m"},     // style changed
		{"ab\ncd", "ab\ncx"},                       // text changed
		{"a\x1b[1m \nb", "a\nb"},                   // lost SGR carried to the next line
	} {
		if screenDiff(c[0], c[1]) == "" {
			t.Errorf("screenDiff(%q, %q) found no difference", c[0], c[1])
		}
	}
}
