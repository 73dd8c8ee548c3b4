package ui

import (
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/colorprofile"
)

// startColorProfile is the colour profile Bubble Tea would find for out in
// environ, found without asking tmux. Inside tmux, colorprofile.Detect runs
// `tmux info` (a subprocess) before the program starts, and the first frame
// waits for it; instead parley starts with what TERM, COLORTERM and the
// terminfo say, and asks tmux after the first frame, together with what it
// asks about pictures (tmuxProbed), switching to 24-bit colour if tmux
// draws it.
func startColorProfile(out io.Writer, environ []string) colorprofile.Profile {
	if out == nil {
		out = os.Stdout
	}
	env := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "TMUX=") {
			env = append(env, kv)
		}
	}
	return colorprofile.Detect(out, env)
}
