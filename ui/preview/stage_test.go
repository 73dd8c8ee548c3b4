package preview

import (
	"fmt"
	"image"
	"image/color"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parley/media/mediatest"
	"parley/ui/termprobe"
)

// screenshotPNG is a 160×90 picture of four coloured quarters.
func screenshotPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 160, 90))
	for y := range 90 {
		for x := range 160 {
			c := color.NRGBA{230, 230, 230, 255}
			switch {
			case x < 80 && y < 45:
				c = color.NRGBA{200, 30, 30, 255}
			case x >= 80 && y >= 45:
				c = color.NRGBA{30, 60, 200, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return mediatest.PNG(t, img)
}

// screen lays a picture's lines into a 60×20 screen of text at row top
// (negative: scrolled up past the top), column 4, the way the transcript
// draws it.
func screen(r Rendered, top int) string {
	lines := make([]string, 20)
	for y := range lines {
		lines[y] = fmt.Sprintf("%-60s", fmt.Sprintf("text line %d", y))
	}
	for i, l := range r.Lines {
		if y := top + i; y >= 0 && y < len(lines) {
			lines[y] = "abcd" + l + strings.Repeat(" ", 60-4-ansi.StringWidth(l))
		}
	}
	return strings.Join(lines, "\n")
}

func renderStagedFor(t *testing.T, mode Mode) Rendered {
	t.Helper()
	r, err := NewCache(0, 0).Render(NewSource(screenshotPNG(t)), 24, 8, Options{Mode: mode, Profile: colorprofile.TrueColor, CellWidth: 8, CellHeight: 16})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != mode || r.staged == nil || r.ID == 0 {
		t.Fatalf("rendered as %v (staged %v, id %d), want %v", r.Mode, r.staged != nil, r.ID, mode)
	}
	return r
}

// noMarkers fails when the frame the terminal gets holds a marker or a
// kitty placeholder, or when a line's width changed.
func noMarkers(t *testing.T, in, out string) {
	t.Helper()
	for _, r := range out {
		if r == markerBase || r == markerFill || r == 0x10EEEE || r >= markFirst && r <= markFirst+0xf {
			t.Fatalf("the frame for the terminal holds %U", r)
		}
	}
	a, b := strings.Split(in, "\n"), strings.Split(out, "\n")
	if len(a) != len(b) {
		t.Fatalf("%d lines became %d", len(a), len(b))
	}
	for i := range a {
		if ansi.StringWidth(a[i]) != ansi.StringWidth(b[i]) {
			t.Fatalf("line %d: width %d became %d", i, ansi.StringWidth(a[i]), ansi.StringWidth(b[i]))
		}
	}
}

var placeRE = regexp.MustCompile(`\x1b7\x1b\[(\d+);(\d+)H\x1b_Ga=p,i=(\d+),p=(\d+),c=(\d+),r=(\d+)((?:,y=\d+,h=\d+)?),C=1,q=2\x1b\\\x1b8`)

// step hands the Stage a frame and returns the frame for the terminal,
// what it writes with the frame, and what it draws once the frame is out.
func step(t *testing.T, st *Stage, frame string) (out, now, drawn string) {
	t.Helper()
	out, now = st.Frame(frame)
	noMarkers(t, frame, out)
	if gen, due := st.Due(); due {
		drawn = st.Draw(gen)
	}
	return out, now, drawn
}

// A kitty before 0.28 gets direct placements: the picture is transmitted
// once without a placement (a=t) with the frame, placed after the frame
// where the frame has it (a=p, the cursor kept), placed again only when it
// moves or is cropped, and its placement deleted when it goes; the frame
// itself holds blank cells, no placeholder.
func TestStageKittyDirect(t *testing.T) {
	r := renderStagedFor(t, KittyDirect)
	st := NewStage(KittyDirect)
	st.Register(r)

	out, now, drawn := step(t, st, screen(r, 3))
	if now != "" {
		t.Fatalf("written with the frame: %q", now[:min(len(now), 200)])
	}
	if n := strings.Count(drawn, "a=t,f=100,"); n != 1 {
		t.Fatalf("%d transmits in %q", n, drawn[:min(len(drawn), 200)])
	}
	if strings.Contains(drawn, "U=1") || strings.Contains(drawn, "a=T") {
		t.Errorf("a virtual placement for a terminal without placeholders")
	}
	if strings.Index(drawn, "a=t,") > strings.Index(drawn, "a=p,") {
		t.Error("placed before it was transmitted")
	}
	m := placeRE.FindAllStringSubmatch(drawn, -1)
	want := fmt.Sprintf("%d;%d;%d;1;%d;%d;", 3+r.Y+1, 4+r.X+1, r.ID, r.Cols, r.Rows)
	if len(m) != 1 || strings.Join(m[0][1:8], ";") != want || !strings.HasSuffix(drawn, m[0][0]) {
		t.Fatalf("drawn %q, want one placement at %s", drawn, want)
	}
	if got := strings.Count(out, nbsp); got != r.Cols*r.Rows {
		t.Errorf("%d blank picture cells, want %d", got, r.Cols*r.Rows)
	}

	// The same frame again writes nothing.
	if _, now, drawn := step(t, st, screen(r, 3)); now != "" || drawn != "" {
		t.Errorf("an unchanged frame wrote %q, %q", now, drawn)
	}

	// Scrolled up by two lines: placed again there, not transmitted again.
	_, now, drawn = step(t, st, screen(r, 1))
	m = placeRE.FindAllStringSubmatch(drawn, -1)
	if now != "" || strings.Contains(drawn, "a=t,") || len(m) != 1 || m[0][1] != fmt.Sprint(1+r.Y+1) || m[0][7] != "" {
		t.Errorf("after scrolling: %q, %q", now, drawn)
	}

	// Half out of view: the rows still shown, cropped from the picture.
	_, _, drawn = step(t, st, screen(r, -(r.Y+2)))
	m = placeRE.FindAllStringSubmatch(drawn, -1)
	if len(m) != 1 || m[0][1] != "1" || m[0][6] != fmt.Sprint(r.Rows-2) || !strings.HasPrefix(m[0][7], ",y=") {
		t.Errorf("cropped placement: %q", drawn)
	}

	// An overlay over the right part of the first row shown: that row is
	// left out.
	lines := strings.Split(screen(r, 3), "\n")
	y := 3 + r.Y
	lines[y] = ansi.Cut(lines[y], 0, 4+r.X+2) + strings.Repeat("#", 60-(4+r.X+2))
	_, _, drawn = step(t, st, strings.Join(lines, "\n"))
	m = placeRE.FindAllStringSubmatch(drawn, -1)
	if len(m) != 1 || m[0][1] != fmt.Sprint(y+2) || m[0][6] != fmt.Sprint(r.Rows-1) {
		t.Errorf("partly covered: %q", drawn)
	}

	// Gone: its placement is deleted with the frame, the picture kept.
	_, now, drawn = step(t, st, screen(r, 40))
	if want := fmt.Sprintf("\x1b_Ga=d,d=i,i=%d,p=1,q=2\x1b\\", r.ID); now != want || drawn != "" {
		t.Errorf("scrolled away: %q, %q; want %q", now, drawn, want)
	}

	// A resize clears the screen: transmitted and placed again, after it.
	st.Cleared()
	_, now, drawn = step(t, st, screen(r, 3))
	if now != "" || !strings.Contains(drawn, "a=t,") || len(placeRE.FindAllString(drawn, -1)) != 1 {
		t.Errorf("after a clear: %q, %q", now, drawn[:min(len(drawn), 120)])
	}
}

var sixelRE = regexp.MustCompile(`\x1b7\x1b\[(\d+);(\d+)H\x1bP0;1;0q"1;1;(\d+);(\d+)`)

// Sixel pictures are drawn into cells, after the frame that blanks them:
// Frame says a drawing is due, Draw writes it at the picture's place, the
// size of its cells, once for as long as it stays, and again when it
// moves or its rows are painted over.
func TestStageSixel(t *testing.T) {
	r := renderStagedFor(t, Sixel)
	st := NewStage(Sixel)
	st.Register(r)

	frame := screen(r, 3)
	out, now := st.Frame(frame)
	noMarkers(t, frame, out)
	if now != "" {
		t.Errorf("sixel written with the frame: %q", now[:min(len(now), 60)])
	}
	gen, due := st.Due()
	if !due {
		t.Fatal("nothing due after a frame with a picture")
	}
	seq := st.Draw(gen)
	m := sixelRE.FindAllStringSubmatch(seq, -1)
	want := fmt.Sprintf("%d %d %d %d", 3+r.Y+1, 4+r.X+1, r.Cols*8, r.Rows*16)
	if len(m) != 1 || strings.Join(m[0][1:], " ") != want || !strings.HasSuffix(seq, "\x1b\\\x1b8") {
		t.Fatalf("drawn %q, want a sixel at %s", seq[:min(len(seq), 80)], want)
	}
	if _, due := st.Due(); due {
		t.Error("still due after drawing")
	}
	sent := len(seq)

	// Unchanged frames, and a change on one side of the picture, leave it.
	st.Frame(frame)
	lines := strings.Split(frame, "\n")
	y := 3 + r.Y + 1
	lines[y] = ansi.Cut(lines[y], 0, 40) + strings.Repeat("x", 20)
	st.Frame(strings.Join(lines, "\n"))
	if _, due := st.Due(); due {
		t.Error("a change right of the picture made it due")
	}

	// A change on both sides repaints the picture's cells: drawn again.
	lines[y] = "ABCD" + ansi.Cut(lines[y], 4, 40) + strings.Repeat("y", 20)
	st.Frame(strings.Join(lines, "\n"))
	gen, due = st.Due()
	if !due {
		t.Fatal("a line painted across the picture did not make it due")
	}
	if seq := st.Draw(gen); len(sixelRE.FindAllString(seq, -1)) != 1 {
		t.Errorf("redrawn: %q", seq[:min(len(seq), 60)])
	}

	// A draw of an older frame writes nothing.
	st.Frame(screen(r, 5))
	newGen, _ := st.Due()
	if seq := st.Draw(newGen - 1); seq != "" {
		t.Error("a stale draw wrote a picture")
	}

	// Half out of view: the rows still shown.
	st.Frame(screen(r, -(r.Y + 2)))
	gen, _ = st.Due()
	m = sixelRE.FindAllStringSubmatch(st.Draw(gen), -1)
	if len(m) != 1 || m[0][1] != "1" || m[0][4] != fmt.Sprint((r.Rows-2)*16) {
		t.Errorf("cropped: %q", m)
	}

	// Touching the last line: the rows above it only (a sixel there would
	// scroll the screen).
	st.Frame(screen(r, 20-r.Y-2))
	gen, _ = st.Due()
	m = sixelRE.FindAllStringSubmatch(st.Draw(gen), -1)
	if len(m) != 1 || m[0][4] != fmt.Sprint(16) {
		t.Errorf("at the bottom: %q", m)
	}
	t.Logf("a %d×%d-cell sixel picture is %d bytes", r.Cols, r.Rows, sent)
}

// iTerm2 gets its inline images, stretched over the picture's cells.
func TestStageITerm(t *testing.T) {
	r := renderStagedFor(t, ITerm)
	st := NewStage(ITerm)
	st.Register(r)
	st.Frame(screen(r, 3))
	gen, due := st.Due()
	seq := st.Draw(gen)
	head := fmt.Sprintf("\x1b7\x1b[%d;%dH\x1b]1337;File=inline=1;size=", 3+r.Y+1, 4+r.X+1)
	tail := fmt.Sprintf(";width=%d;height=%d;preserveAspectRatio=0:", r.Cols, r.Rows)
	if !due || !strings.HasPrefix(seq, head) || !strings.Contains(seq, tail) || !strings.HasSuffix(seq, "\a\x1b8") {
		t.Errorf("inline image %q", seq[:min(len(seq), 120)])
	}
}

// The bytes each terminal gets for one picture, chosen from what it
// answered: kitty's placeholders only where they are drawn (kitty 0.28 and
// later, Ghostty), direct placements in kitty before 0.28, sixel in an
// xterm started as a VT340, half blocks where nothing else is known.
func TestBytesPerTerminal(t *testing.T) {
	cases := []struct {
		name    string
		env     []string
		version string
		attrs   []int
		want    Mode
	}{
		{"kitty 0.26.5", []string{"TERM", "xterm-kitty"}, "kitty(0.26.5)", []int{62, 52, 4}, KittyDirect},
		{"kitty 0.21.2", []string{"TERM", "xterm-kitty"}, "kitty(0.21.2)", []int{62}, KittyDirect},
		{"kitty 0.28.1", []string{"TERM", "xterm-kitty"}, "kitty(0.28.1)", []int{62}, Kitty},
		{"Ghostty", []string{"TERM", "xterm-ghostty"}, "ghostty 1.1.3", []int{62, 22}, Kitty},
		{"xterm -ti vt340", []string{"TERM", "xterm"}, "XTerm(379)", []int{63, 1, 2, 3, 4, 6, 9, 15, 16, 17, 18, 21, 22, 28, 29}, Sixel},
		{"WezTerm", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "WezTerm"}, "WezTerm 20240203-110809-5046fc22", []int{65, 4, 6, 18, 22}, KittyDirect},
		{"iTerm2", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "iTerm.app"}, "iTerm2 3.5.0", []int{62, 4}, ITerm},
		{"a plain xterm", []string{"TERM", "xterm-256color"}, "XTerm(379)", []int{65, 1, 9}, Blocks},
	}
	data := screenshotPNG(t)
	for _, c := range cases {
		f := termprobe.Facts{Version: c.version, Answered: true, Attributes: c.attrs}
		for _, a := range c.attrs {
			f.Sixel = f.Sixel || a == 4
		}
		mode := Choose("auto", envOf(c.env...), Known{Facts: f}).Mode
		if mode != c.want {
			t.Errorf("%s: %v, want %v", c.name, mode, c.want)
			continue
		}
		cache := NewCache(0, 0)
		r, err := cache.Render(NewSource(data), 24, 8, Options{Mode: mode, Profile: colorprofile.TrueColor})
		if err != nil {
			t.Fatal(err)
		}
		st := NewStage(mode)
		st.Register(r)
		var sent Transmitted = Transmitted{}
		frame, now := st.Frame(screen(r, 3))
		written := sent.Need(r) + now
		if gen, due := st.Due(); due {
			written += st.Draw(gen)
		}
		all := frame + written
		placeholders := strings.ContainsRune(all, 0x10EEEE)
		if placeholders != (mode == Kitty) {
			t.Errorf("%s (%v): placeholders %v", c.name, mode, placeholders)
		}
		checks := map[string]bool{
			"a=T,f=100,U=1": mode == Kitty,
			"a=t,f=100,":    mode == KittyDirect,
			",C=1,q=2":      mode == KittyDirect,
			"\x1bP0;1;0q":   mode == Sixel,
			"\x1b]1337;":    mode == ITerm,
			"▀":             mode == Blocks,
		}
		for s, want := range checks {
			if strings.Contains(all, s) != want {
				t.Errorf("%s (%v): %q written: %v, want %v", c.name, mode, s, !want, want)
			}
		}
		t.Logf("%s: %v, %d bytes for the first frame's picture", c.name, mode, len(written))
	}
}

// Text that looks like a marker (a reply can hold any character) draws
// nothing and asks for nothing: its id is no picture's. A picture the Stage
// let go and sees again is reported once, to be made again.
func TestStageForgedAndForgottenMarkers(t *testing.T) {
	r := renderStagedFor(t, Sixel)
	st := NewStage(Sixel)
	forged := Rendered{Lines: markerLines(r.ID^0x5a5a5a, r.Cols, r.Rows, 24, 8), Cols: r.Cols, Rows: r.Rows}
	frame := screen(forged, 3)
	out, now := st.Frame(frame)
	noMarkers(t, frame, out)
	if _, due := st.Due(); due || now != "" || st.Missing() || strings.Contains(out, nbsp) {
		t.Errorf("a forged marker drew or asked for something")
	}
	st.Register(r)
	st.Frame(screen(forged, 4)) // a later frame: r is the oldest picture
	for i := range maxKnown + 1 {
		other := r
		other.ID = r.ID + uint32(i) + 1
		st.Register(other) // r, never shown, is the oldest and goes
	}
	st.Frame(screen(r, 3))
	if !st.Missing() {
		t.Error("a picture let go and shown again was not reported")
	}
	if st.Missing() {
		t.Error("reported twice")
	}
}
