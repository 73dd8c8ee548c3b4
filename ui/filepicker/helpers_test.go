package filepicker

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

func testCtx(t testing.TB) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 100, Height: 30, Theme: th, Styles: th.Styles(false), Keys: keys.Default()}
}

// pngBytes is a real w×h PNG.
func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 20), uint8(y * 20), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// mkfiles creates files (and their folders) under dir: a name ending in
// "/" is an empty folder, a .png a real image, a .bin the start of a
// program (binary), anything else some text.
func mkfiles(t testing.TB, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data := []byte("not an image")
		switch {
		case strings.HasSuffix(n, ".png"):
			data = pngBytes(t, 6, 4)
		case strings.HasSuffix(n, ".bin"):
			data = []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00")
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// open makes a picker at w×h in dir and lets it read the folder; it
// returns the picker and the results seen so far.
func open(t testing.TB, dir, home string, w, h int, previews bool) (*Picker, []Result) {
	t.Helper()
	p, cmd := New(testCtx(t), Options{Dir: dir, Home: home, Previews: previews})
	p.SetSize(w, h)
	return p, drive(t, p, cmd)
}

// drive runs cmd and hands its messages back to the picker, as the root
// would, until no command is left; it returns the results.
func drive(t testing.TB, p *Picker, cmd tea.Cmd) []Result {
	t.Helper()
	var out []Result
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			res, next := p.update(msg)
			out = append(out, res)
			queue = append(queue, next)
		}
	}
	return out
}

// key decodes the bytes a terminal sends for one key.
func key(t testing.TB, seq string) tea.KeyPressMsg {
	t.Helper()
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(seq))
	k, ok := ev.(uv.KeyPressEvent)
	if !ok || n != len(seq) {
		t.Fatalf("%q decodes to %T", seq, ev)
	}
	return tea.KeyPressMsg(k)
}

// Key sequences a terminal sends.
const (
	esc, enter, space = "\x1b", "\r", " "
	up, down          = "\x1b[A", "\x1b[B"
	left, right       = "\x1b[D", "\x1b[C"
	backspace, ctrlU  = "\x7f", "\x15"
	ctrlW             = "\x17"
)

// press sends one key and runs what it starts; it returns every result
// (the key's first).
func press(t testing.TB, p *Picker, seq string) []Result {
	t.Helper()
	res, cmd := p.update(key(t, seq))
	return append([]Result{res}, drive(t, p, cmd)...)
}

// typeText types s a key at a time.
func typeText(t testing.TB, p *Picker, s string) {
	t.Helper()
	for _, r := range s {
		press(t, p, string(r))
	}
}

// action is the first result asking something of the root.
func action(rs []Result) Result {
	for _, r := range rs {
		if r.Action != None {
			return r
		}
	}
	return Result{}
}

func plain(s string) string { return ansi.Strip(s) }

func requireArea(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, plain(view))
	}
	for i, l := range lines {
		if got := lipgloss.Width(l); got != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, plain(l))
		}
	}
}

func requireInert(t testing.TB, view string) {
	t.Helper()
	for _, r := range plain(view) {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("raw control %U in the view: %q", r, view)
		}
	}
}

// says reports whether the view holds sentence, wrapped over lines or
// not: the words in order, white space of any kind between them.
func says(view, sentence string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	return strings.Contains(norm(plain(view)), norm(sentence))
}

// writeFile writes a file of the test's into dir and returns its path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
