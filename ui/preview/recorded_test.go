package preview

import (
	"os"
	"path/filepath"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"

	"parley/ui/termprobe"
)

// factsFrom reads a terminal's recorded answers (termprobe's test data:
// what the real terminal answered parley's queries under Xvfb).
func factsFrom(t *testing.T, file string) termprobe.Facts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "termprobe", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	var f termprobe.Facts
	var dec uv.EventDecoder
	for len(data) > 0 {
		n, ev := dec.Decode(data)
		if n == 0 {
			break
		}
		if multi, ok := ev.(uv.MultiEvent); ok {
			for _, e := range multi {
				f.Take(e)
			}
		} else {
			f.Take(ev)
		}
		data = data[n:]
	}
	if !f.Answered {
		t.Fatalf("%s: no DA1 answer in the recording", file)
	}
	return f
}

// The mode each terminal tried for real gets from its recorded answers and
// the environment it set: what was seen to work there.
func TestModesOfTerminalsTriedForReal(t *testing.T) {
	cases := []struct {
		file string
		env  []string
		want Mode
	}{
		// Sixel drawn, placed and erased as the frame says.
		{"xterm-379-vt340.answers", []string{"TERM", "xterm", "XTERM_VERSION", "XTerm(379)"}, Sixel},
		// Its kitty placements vanished and its sixel pictures stayed
		// after the text over them changed: half blocks.
		{"konsole-22.12.3.answers", []string{"TERM", "xterm-256color", "KONSOLE_VERSION", "221203", "COLORTERM", "truecolor"}, Blocks},
		{"foot-1.13.1.answers", []string{"TERM", "foot", "WAYLAND_DISPLAY", "wl-terms"}, Sixel},
		{"mlterm-3.9.0.answers", []string{"TERM", "mlterm", "MLTERM", "3.9.0"}, Sixel},
		{"kitty-0.26.5.answers", []string{"TERM", "xterm-kitty", "KITTY_WINDOW_ID", "1"}, KittyDirect},
		{"xterm-379.answers", []string{"TERM", "xterm", "XTERM_VERSION", "XTerm(379)"}, Blocks},
	}
	for _, c := range cases {
		f := factsFrom(t, c.file)
		if got := Choose(SettingAuto, envOf(c.env...), Known{Facts: f}); got.Mode != c.want {
			t.Errorf("%s: %v (%v), want %v", c.file, got.Mode, got.Terminal, c.want)
		}
	}
	// tmux 3.3a in kitty 0.26.5 with passthrough on: kitty before 0.28
	// draws no placeholders, and direct placement cannot pass tmux.
	tmuxEnv := envOf("TERM", "tmux-256color", "TMUX", "/tmp/tmux-0/pt,1,0", "TERM_PROGRAM", "tmux", "KITTY_WINDOW_ID", "1")
	k := Known{Facts: factsFrom(t, "tmux-3.3a-in-kitty-0.26.5.answers"), Tmux: Tmux{ClientTerm: "xterm-kitty", ClientType: "kitty(0.26.5)", Passthrough: true}}
	if m := Choose(SettingAuto, tmuxEnv, k).Mode; m != Blocks {
		t.Errorf("tmux in kitty 0.26.5: %v", m)
	}
	// Before the answers come, the environment alone: Konsole 22.12 is
	// half blocks too, and "kitty" still forces direct placement.
	env := envOf("TERM", "xterm-256color", "KONSOLE_VERSION", "221203")
	if m := Choose(SettingAuto, env, Known{}).Mode; m != Blocks {
		t.Errorf("Konsole 22.12 from its environment: %v", m)
	}
	if m := Choose(SettingKitty, env, Known{}).Mode; m != KittyDirect {
		t.Errorf("Konsole 22.12 with images = \"kitty\": %v", m)
	}
}
