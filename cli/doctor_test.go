package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"parley/ui/preview"
	"parley/ui/termprobe"
)

// What doctor says for the terminals parley tells apart: the terminal with
// its version, what it answered, and how pictures are drawn.
func TestDoctorReport(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		name   string
		r      terminalReport
		getenv func(string) string
		want   []string
	}{
		{"kitty 0.26.5", terminalReport{setting: "auto", known: preview.Known{Facts: termprobe.Facts{
			Version: "kitty(0.26.5)", Answered: true, Sixel: true, KittyGraphics: true, CellWidth: 10, CellHeight: 20}}},
			env("TERM", "xterm-kitty"),
			[]string{"terminal:         kitty 0.26.5\n", "XTVERSION:      kitty(0.26.5)", "kitty graphics: yes", "cell:           10×20 pixels",
				"pictures:         kitty graphics, direct placement (images = \"auto\")"}},
		{"xterm as a VT340", terminalReport{setting: "auto", known: preview.Known{Facts: termprobe.Facts{
			Version: "XTerm(379)", Answered: true, Sixel: true, Registers: 256, SixelWidth: 1000, SixelHeight: 1000}}},
			env("TERM", "xterm"),
			[]string{"terminal:         XTerm 379\n", "sixel:          yes, 256 colour registers, up to 1000×1000 pixels", "pictures:         sixel"}},
		{"no terminal to ask", terminalReport{setting: "blocks", asked: "not asked: there is no terminal to ask"},
			env("TERM", "xterm-256color"),
			[]string{"terminal:         unknown\n", "answers:        not asked", "pictures:         half blocks (images = \"blocks\")"}},
		{"inside tmux", terminalReport{setting: "auto", tmux: "client terminal xterm-kitty, which says it is kitty(0.35.2), allow-passthrough on",
			known: preview.Known{Tmux: preview.Tmux{ClientTerm: "xterm-kitty", ClientType: "kitty(0.35.2)", Passthrough: true},
				Facts: termprobe.Facts{Version: "tmux 3.3a", Answered: true}}},
			env("TERM", "tmux-256color", "TMUX", "/tmp/tmux-0/default,1,0"),
			[]string{"terminal:         tmux 3.3a\n", "tmux:             client terminal xterm-kitty", "pictures:         kitty graphics, Unicode placeholders through tmux"}},
	}
	for _, c := range cases {
		var out bytes.Buffer
		c.r.write(&out, c.getenv)
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: %q lacks %q", c.name, out.String(), w)
			}
		}
		// Every value starts in the same column, "kitty graphics:"'s too.
		col := -1
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			_, value, _ := strings.Cut(line, ": ")
			at := len(line) - len(strings.TrimLeft(value, " "))
			if col >= 0 && at != col {
				t.Errorf("%s: the value of %q starts in column %d, the others in %d:\n%s", c.name, line, at, col, out.String())
			}
			col = at
		}
	}
}

// parley doctor runs without a terminal to ask (as in CI) and still says
// how pictures would be drawn.
func TestDoctorCommand(t *testing.T) {
	h := newHarness(t)
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return h.env[k] }}
	if code := Main(context.Background(), []string{"doctor"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, w := range []string{"terminal:", "pictures:"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("%q lacks %q", out.String(), w)
		}
	}
}
