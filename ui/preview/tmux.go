package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"parley/internal/procgroup"
)

// Tmux is what the tmux server says about the pane parley runs in.
type Tmux struct {
	// ClientTerm is the TERM of the terminal the tmux client runs in
	// ("xterm-kitty"), empty when no client is attached.
	ClientTerm string
	// ClientType is what the client's terminal told tmux it is (tmux 3.3
	// and later ask it with XTVERSION: "kitty(0.26.5)"), "" when unknown.
	ClientType string
	// Passthrough is true when allow-passthrough is on (or "all", tmux 3.4
	// and later), so graphics commands wrapped for tmux reach that terminal.
	Passthrough bool
	// RGB is true when tmux draws 24-bit colour on its client (the client's
	// features include RGB, from its terminfo or terminal-features).
	RGB bool
}

// TmuxProbeTimeout bounds ProbeTmux: tmux answers in milliseconds; a server
// that does not answer in time counts as "no passthrough".
const TmuxProbeTimeout = 2 * time.Second

// ProbeTmux asks the tmux server parley runs under (TMUX set) about its
// client's terminal, allow-passthrough and 24-bit colour, with one `tmux
// display-message` bounded by TmuxProbeTimeout. Call it from a tea.Cmd
// after the first frame and pass the result to Choose. Outside tmux it
// returns Tmux{} and no error.
func ProbeTmux(ctx context.Context, getenv func(string) string) (Tmux, error) {
	if getenv("TMUX") == "" {
		return Tmux{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, TmuxProbeTimeout)
	defer cancel()
	args := []string{"display-message", "-p"}
	if pane := getenv("TMUX_PANE"); pane != "" {
		args = append(args, "-t", pane)
	}
	// A format reads options by name; allow-passthrough is a pane option
	// since tmux 3.3 (older servers print nothing for it and count as off).
	args = append(args, "#{client_termname}\t#{allow-passthrough}\t#{client_termtype}\t#{client_termfeatures}")
	cmd := exec.CommandContext(ctx, "tmux", args...)
	var out, errOut bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, n: 4096}
	cmd.Stderr = &limitedWriter{w: &errOut, n: 4096}
	cmd.WaitDelay = 100 * time.Millisecond
	procgroup.Set(cmd)
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Tmux{}, errors.New("tmux did not answer in time whether it passes images through, so previews use half blocks; set images = \"kitty\" to use kitty graphics anyway")
		}
		return Tmux{}, fmt.Errorf("asking tmux whether it passes images through failed: %w", err)
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	f := strings.Split(line, "\t")
	if len(f) < 2 {
		return Tmux{}, fmt.Errorf("tmux answered %q where parley expected its client's terminal and allow-passthrough", truncateASCII(line, 60))
	}
	pass := strings.TrimSpace(f[1])
	// tmux 3.3 shows the option as a flag ("1"), later versions as a
	// choice ("on", "all").
	t := Tmux{ClientTerm: strings.TrimSpace(f[0]), Passthrough: pass == "1" || pass == "on" || pass == "all"}
	if len(f) > 2 {
		t.ClientType = truncateASCII(strings.TrimSpace(f[2]), 80)
	}
	if len(f) > 3 {
		for feat := range strings.SplitSeq(f[3], ",") {
			if strings.TrimSpace(feat) == "RGB" {
				t.RGB = true
			}
		}
	}
	return t, nil
}

// limitedWriter keeps at most n bytes and drops the rest, so a broken tmux
// cannot fill memory.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// truncateASCII keeps the printable ASCII of s, at most n bytes of it, so an
// unexpected answer can be quoted in an error without carrying controls.
func truncateASCII(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < n; i++ {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}
