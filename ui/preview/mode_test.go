package preview

import (
	"testing"
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
		{"kitty by TERM", "auto", []string{"TERM", "xterm-kitty"}, Kitty},
		{"empty setting is auto", "", []string{"TERM", "xterm-kitty"}, Kitty},
		{"unknown setting is auto", "sixel", []string{"TERM", "xterm-kitty"}, Kitty},
		{"kitty by window id", "auto", []string{"TERM", "xterm-256color", "KITTY_WINDOW_ID", "3"}, Kitty},
		{"a terminal started from kitty", "auto", []string{"TERM", "xterm-256color", "KITTY_WINDOW_ID", "3", "VTE_VERSION", "7600"}, Blocks},
		{"wezterm started from kitty", "auto", []string{"TERM", "xterm-256color", "KITTY_WINDOW_ID", "3", "TERM_PROGRAM", "WezTerm"}, Blocks},
		{"ghostty by TERM_PROGRAM", "auto", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "ghostty"}, Kitty},
		{"ghostty by TERM", "auto", []string{"TERM", "xterm-ghostty"}, Kitty},
		{"kitty over SSH (TERM travels)", "auto", []string{"TERM", "xterm-kitty", "SSH_CONNECTION", "1.2.3.4 5 6.7.8.9 22"}, Kitty},
		{"wezterm draws no placeholders", "auto", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "WezTerm"}, Blocks},
		{"iTerm2", "auto", []string{"TERM", "xterm-256color", "TERM_PROGRAM", "iTerm.app"}, Blocks},
		{"a plain xterm", "auto", []string{"TERM", "xterm-256color"}, Blocks},
		{"no TERM at all", "auto", nil, Blocks},
		{"dumb", "auto", []string{"TERM", "dumb"}, Blocks},
		{"tmux in kitty, unprobed", "auto", []string{"TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0", "KITTY_WINDOW_ID", "1"}, Blocks},
		{"tmux with TERM=xterm-kitty forced", "auto", []string{"TERM", "xterm-kitty", "TMUX", "/tmp/tmux-1/default,1,0"}, Blocks},
		{"TERM=tmux without TMUX (SSH from a pane)", "auto", []string{"TERM", "tmux-256color"}, Blocks},
		{"GNU screen", "auto", []string{"TERM", "screen.xterm-256color", "STY", "1.pts-0.host"}, Blocks},
		{"zellij in kitty", "auto", []string{"TERM", "xterm-kitty", "ZELLIJ", "0"}, Blocks},
		{"NO_COLOR in kitty", "auto", []string{"TERM", "xterm-kitty", "NO_COLOR", "1"}, Blocks},
		{"NO_COLOR beats the kitty setting", "kitty", []string{"TERM", "xterm-kitty", "NO_COLOR", "1"}, Blocks},
		{"empty NO_COLOR does not count", "auto", []string{"TERM", "xterm-kitty", "NO_COLOR", ""}, Kitty},
		{"blocks setting in kitty", "blocks", []string{"TERM", "xterm-kitty"}, Blocks},
		{"kitty setting anywhere", "kitty", []string{"TERM", "xterm-256color"}, Kitty},
		{"kitty setting in tmux", "kitty", []string{"TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0"}, KittyTmux},
		{"kitty setting over SSH from tmux", "kitty", []string{"TERM", "tmux-256color"}, KittyTmux},
		{"off", "off", []string{"TERM", "xterm-kitty"}, Off},
		{"off with NO_COLOR", "off", []string{"NO_COLOR", "1"}, Off},
	}
	for _, c := range cases {
		if got := Select(c.setting, envOf(c.env...)); got != c.want {
			t.Errorf("%s: Select(%q) = %v, want %v", c.name, c.setting, got, c.want)
		}
	}
}

// Inside tmux, auto takes kitty only when the probe says both that the
// client's terminal draws placeholders and that tmux passes graphics on.
func TestSelectProbed(t *testing.T) {
	env := envOf("TERM", "tmux-256color", "TMUX", "/tmp/tmux-1/default,1,0")
	cases := []struct {
		probe Tmux
		want  Mode
	}{
		{Tmux{ClientTerm: "xterm-kitty", Passthrough: true}, KittyTmux},
		{Tmux{ClientTerm: "xterm-ghostty", Passthrough: true}, KittyTmux},
		{Tmux{ClientTerm: "xterm-kitty", Passthrough: false}, Blocks},
		{Tmux{ClientTerm: "xterm-256color", Passthrough: true}, Blocks},
		{Tmux{ClientTerm: "", Passthrough: true}, Blocks},
	}
	for _, c := range cases {
		if got := SelectProbed("auto", env, c.probe); got != c.want {
			t.Errorf("probe %+v: %v, want %v", c.probe, got, c.want)
		}
	}
	// A probe does not matter outside tmux, nor against an explicit setting.
	if got := SelectProbed("auto", envOf("TERM", "xterm-256color"), Tmux{ClientTerm: "xterm-kitty", Passthrough: true}); got != Blocks {
		t.Errorf("outside tmux with a probe: %v", got)
	}
	if got := SelectProbed("blocks", env, Tmux{ClientTerm: "xterm-kitty", Passthrough: true}); got != Blocks {
		t.Errorf("blocks setting with a probe: %v", got)
	}
}
