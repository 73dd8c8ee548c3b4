package preview

import (
	"testing"

	"parley/ui/termprobe"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestSelect(t *testing.T) {
	cases := []struct {
		name    string
		setting string
		env     []string
		want    Mode
	}{
		// Before the terminal answered, kitty's version is unknown: half
		// blocks until it says (placeholders in a kitty before 0.28 are
		// boxes).
		{"kitty by TERM, unprobed", "auto", []string{"TERM", "xterm-kitty"}, Blocks},
		{"kitty by window id, unprobed", "auto", []string{"TERM", "xterm-256color", "KITTY_WINDOW_ID", "3"}, Blocks},
		{"a terminal started from kitty", "auto", []string{"TERM", "xterm-256color", "KITTY_WINDOW_ID", "3", "VTE_VERSION", "7600"}, Blocks},
		{"wezterm started from kitty", "auto", []string{"TERM", "xterm-256color", "KITTY_WINDOW_ID", "3", "TERM_PROGRAM", "WezTerm"}, KittyDirect},
		{"ghostty by TERM_PROGRAM", "auto", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "ghostty"}, Kitty},
		{"ghostty by TERM", "auto", []string{"TERM", "xterm-ghostty"}, Kitty},
		{"ghostty over SSH (TERM travels)", "auto", []string{"TERM", "xterm-ghostty", "SSH_CONNECTION", "1.2.3.4 5 6.7.8.9 22"}, Kitty},
		{"wezterm", "auto", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "WezTerm"}, KittyDirect},
		{"konsole", "auto", []string{"TERM", "xterm-256color", "KONSOLE_VERSION", "230805"}, KittyDirect},
		{"iTerm2", "auto", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "iTerm.app"}, ITerm},
		{"a plain xterm, unprobed", "auto", []string{"TERM", "xterm-256color"}, Blocks},
		{"no TERM at all", "auto", nil, Blocks},
		{"dumb", "auto", []string{"TERM", "dumb"}, Blocks},
		{"tmux in kitty, unprobed", "auto", []string{"TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0", "KITTY_WINDOW_ID", "1"}, Blocks},
		{"tmux with TERM=xterm-kitty forced", "auto", []string{"TERM", "xterm-kitty", "TMUX", "/tmp/tmux-1/default,1,0"}, Blocks},
		{"TERM=tmux without TMUX (SSH from a pane)", "auto", []string{"TERM", "tmux-256color"}, Blocks},
		{"GNU screen", "auto", []string{"TERM", "screen.xterm-256color", "STY", "1.pts-0.host"}, Blocks},
		{"zellij in ghostty", "auto", []string{"TERM", "xterm-ghostty", "ZELLIJ", "0"}, Blocks},
		{"NO_COLOR in ghostty", "auto", []string{"TERM", "xterm-ghostty", "NO_COLOR", "1"}, Blocks},
		{"NO_COLOR beats the kitty setting", "kitty", []string{"TERM", "xterm-kitty", "NO_COLOR", "1"}, Blocks},
		{"NO_COLOR beats the sixel setting", "sixel", []string{"TERM", "xterm", "NO_COLOR", "1"}, Blocks},
		{"empty NO_COLOR does not count", "auto", []string{"TERM", "xterm-ghostty", "NO_COLOR", ""}, Kitty},
		{"blocks setting in ghostty", "blocks", []string{"TERM", "xterm-ghostty"}, Blocks},
		{"kitty setting anywhere", "kitty", []string{"TERM", "xterm-256color"}, Kitty},
		{"kitty setting in wezterm", "kitty", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "WezTerm"}, KittyDirect},
		{"kitty setting in tmux", "kitty", []string{"TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0"}, KittyTmux},
		{"kitty setting over SSH from tmux", "kitty", []string{"TERM", "tmux-256color"}, KittyTmux},
		{"sixel setting", "sixel", []string{"TERM", "xterm-256color"}, Sixel},
		{"iterm setting", "iterm", []string{"TERM", "xterm-256color"}, ITerm},
		{"unknown setting is auto", "pictures", []string{"TERM", "xterm-ghostty"}, Kitty},
		{"off", "off", []string{"TERM", "xterm-kitty"}, Off},
		{"off with NO_COLOR", "off", []string{"NO_COLOR", "1"}, Off},
	}
	for _, c := range cases {
		if got := Select(c.setting, envOf(c.env...)); got != c.want {
			t.Errorf("%s: Select(%q) = %v, want %v", c.name, c.setting, got, c.want)
		}
	}
}

// What the terminal answered decides: kitty's version, sixel in the
// device attributes, the kitty graphics query.
func TestChooseByAnswers(t *testing.T) {
	answered := func(version string, attrs ...int) termprobe.Facts {
		f := termprobe.Facts{Version: version, Answered: true, Attributes: attrs}
		for _, a := range attrs {
			f.Sixel = f.Sixel || a == 4
		}
		return f
	}
	cases := []struct {
		name  string
		env   []string
		facts termprobe.Facts
		want  Mode
		term  string
	}{
		{"kitty 0.26.5 (Debian 12)", []string{"TERM", "xterm-kitty"}, answered("kitty(0.26.5)", 62, 52, 4), KittyDirect, "kitty 0.26.5"},
		{"kitty 0.21.2 (Ubuntu 22.04)", []string{"TERM", "xterm-kitty"}, answered("kitty(0.21.2)", 62), KittyDirect, "kitty 0.21.2"},
		{"kitty 0.28.0", []string{"TERM", "xterm-kitty"}, answered("kitty(0.28.0)", 62), Kitty, "kitty 0.28.0"},
		{"kitty 0.35.2", []string{"TERM", "xterm-kitty"}, answered("kitty(0.35.2)", 62), Kitty, "kitty 0.35.2"},
		{"kitty without XTVERSION", []string{"TERM", "xterm-kitty"}, answered("", 62), KittyDirect, "kitty"},
		{"xterm as a VT340", []string{"TERM", "xterm"}, answered("XTerm(379)", 63, 1, 2, 3, 4, 6, 9, 15, 16, 17, 18, 21, 22, 28, 29), Sixel, "XTerm 379"},
		{"xterm without sixel", []string{"TERM", "xterm-256color"}, answered("XTerm(379)", 65, 1, 9, 15, 22, 28, 29), Blocks, "XTerm 379"},
		{"foot", []string{"TERM", "foot"}, answered("foot(1.16.2)", 62, 4, 22), Sixel, "foot 1.16.2"},
		{"mlterm", []string{"TERM", "xterm"}, answered("", 63, 1, 2, 3, 4, 6, 7, 15, 18, 22, 29), Sixel, "unknown"},
		{"Windows Terminal 1.22", []string{"TERM", "xterm-256color", "WT_SESSION", "x"}, answered("", 61, 4, 6, 7, 14, 21, 22, 23, 24, 28, 32, 42), Sixel, "Windows Terminal"},
		{"Windows Terminal before 1.22", []string{"TERM", "xterm-256color", "WT_SESSION", "x"}, answered("", 61, 6, 7, 22, 23, 24, 28, 32, 42), Blocks, "Windows Terminal"},
		{"VS Code with images", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "vscode"}, answered("xterm.js(5.5.0)", 1, 2, 4, 6, 22), Sixel, "VS Code 5.5.0"},
		{"WezTerm answers", []string{"TERM", "xterm-256color"}, answered("WezTerm 20240203-110809-5046fc22", 65, 4, 6, 18, 22), KittyDirect, "WezTerm 20240203-110809-5046fc22"},
		{"iTerm2 answers", []string{"TERM", "xterm-256color"}, answered("iTerm2 3.5.0", 62, 4), ITerm, "iTerm2 3.5.0"},
		{"Ghostty answers", []string{"TERM", "xterm-256color"}, answered("ghostty 1.1.3", 62, 22), Kitty, "Ghostty 1.1.3"},
		{"an unknown terminal with the kitty protocol", []string{"TERM", "xterm-256color"}, termprobe.Facts{Version: "rio 0.2", Answered: true, KittyGraphics: true}, KittyDirect, "rio 0.2"},
		{"GNOME Terminal", []string{"TERM", "xterm-256color", "VTE_VERSION", "7600"}, answered("", 65, 1, 9), Blocks, "VTE 7600"},
	}
	for _, c := range cases {
		got := Choose("auto", envOf(c.env...), Known{Facts: c.facts})
		if got.Mode != c.want || got.Terminal.String() != c.term {
			t.Errorf("%s: %v in %q, want %v in %q", c.name, got.Mode, got.Terminal, c.want, c.term)
		}
	}
}

// Inside tmux, auto takes kitty placeholders only when the probe says both
// that the client's terminal draws them and that tmux passes graphics on;
// sixel when tmux itself draws sixel.
func TestChooseInTmux(t *testing.T) {
	env := envOf("TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0")
	cases := []struct {
		probe Tmux
		facts termprobe.Facts
		want  Mode
	}{
		{Tmux{ClientTerm: "xterm-kitty", Passthrough: true}, termprobe.Facts{}, KittyTmux},
		{Tmux{ClientTerm: "xterm-ghostty", Passthrough: true}, termprobe.Facts{}, KittyTmux},
		{Tmux{ClientTerm: "xterm-kitty", ClientType: "kitty(0.26.5)", Passthrough: true}, termprobe.Facts{}, Blocks},
		{Tmux{ClientTerm: "xterm-kitty", ClientType: "kitty(0.32.2)", Passthrough: true}, termprobe.Facts{}, KittyTmux},
		{Tmux{ClientTerm: "xterm-kitty", Passthrough: false}, termprobe.Facts{}, Blocks},
		{Tmux{ClientTerm: "xterm-256color", Passthrough: true}, termprobe.Facts{}, Blocks},
		{Tmux{ClientTerm: "", Passthrough: true}, termprobe.Facts{}, Blocks},
		{Tmux{ClientTerm: "foot"}, termprobe.Facts{Version: "tmux 3.4", Sixel: true, Answered: true}, Sixel},
	}
	for _, c := range cases {
		if got := Choose("auto", env, Known{Tmux: c.probe, Facts: c.facts}).Mode; got != c.want {
			t.Errorf("probe %+v %+v: %v, want %v", c.probe, c.facts, got, c.want)
		}
	}
	// A probe does not matter outside tmux, nor against an explicit setting.
	if got := Choose("auto", envOf("TERM", "xterm-256color"), Known{Tmux: Tmux{ClientTerm: "xterm-kitty", Passthrough: true}}).Mode; got != Blocks {
		t.Errorf("outside tmux with a probe: %v", got)
	}
	if got := Choose("blocks", env, Known{Tmux: Tmux{ClientTerm: "xterm-kitty", Passthrough: true}}).Mode; got != Blocks {
		t.Errorf("blocks setting with a probe: %v", got)
	}
}
