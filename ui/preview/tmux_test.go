package preview

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeTmux puts a tmux on PATH that runs script (sh) and records its
// arguments, one a line, in the returned file.
func fakeTmux(t *testing.T, script string) (argsFile string) {
	t.Helper()
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	body := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" + argsFile + "'; done\n" + script + "\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return argsFile
}

func tmuxEnv() func(string) string {
	return envOf("TMUX", "/tmp/tmux-1/default,42,0", "TMUX_PANE", "%3")
}

func TestProbeTmuxAnswers(t *testing.T) {
	cases := []struct {
		out  string
		want Tmux
	}{
		{`xterm-kitty\ton`, Tmux{ClientTerm: "xterm-kitty", Passthrough: true}},
		{`xterm-ghostty\tall`, Tmux{ClientTerm: "xterm-ghostty", Passthrough: true}},
		{`xterm-kitty\toff`, Tmux{ClientTerm: "xterm-kitty"}},
		{`xterm-kitty\t1`, Tmux{ClientTerm: "xterm-kitty", Passthrough: true}}, // tmux 3.3: a flag
		{`xterm-kitty\t0`, Tmux{ClientTerm: "xterm-kitty"}},
		{`xterm-256color\t`, Tmux{ClientTerm: "xterm-256color"}}, // tmux before 3.3
		{`\ton`, Tmux{Passthrough: true}},                        // no client attached
		{`xterm-kitty\ton\tkitty(0.26.5)\t256,RGB,title`, Tmux{ClientTerm: "xterm-kitty", ClientType: "kitty(0.26.5)", Passthrough: true, RGB: true}},
		{`xterm-256color\toff\tXTerm(379)\t256,title`, Tmux{ClientTerm: "xterm-256color", ClientType: "XTerm(379)"}},
	}
	for _, c := range cases {
		args := fakeTmux(t, `printf '`+c.out+`\n'`)
		got, err := ProbeTmux(context.Background(), tmuxEnv())
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.out, got, err, c.want)
		}
		b, _ := os.ReadFile(args)
		if want := "display-message\n-p\n-t\n%3\n#{client_termname}\t#{allow-passthrough}\t#{client_termtype}\t#{client_termfeatures}\n"; string(b) != want {
			t.Errorf("tmux ran with %q, want %q", b, want)
		}
	}
}

func TestProbeTmuxFailures(t *testing.T) {
	fakeTmux(t, "echo 'no server running on /tmp/tmux-1/default' >&2; exit 1")
	if _, err := ProbeTmux(context.Background(), tmuxEnv()); err == nil || !strings.Contains(err.Error(), "asking tmux") {
		t.Errorf("failing tmux: %v", err)
	}

	fakeTmux(t, "printf 'what\\n'")
	if _, err := ProbeTmux(context.Background(), tmuxEnv()); err == nil || !strings.Contains(err.Error(), `"what"`) {
		t.Errorf("garbled answer: %v", err)
	}

	fakeTmux(t, "exec /bin/sleep 30")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ProbeTmux(ctx, tmuxEnv())
	if err == nil || !strings.Contains(err.Error(), "in time") {
		t.Errorf("hanging tmux: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a hanging tmux held the probe %v", d)
	}

	t.Setenv("PATH", t.TempDir()) // no tmux at all
	if _, err := ProbeTmux(context.Background(), tmuxEnv()); err == nil {
		t.Error("no tmux installed: no error")
	}
}

func TestProbeTmuxOutsideTmux(t *testing.T) {
	args := fakeTmux(t, "printf 'xterm-kitty\\ton\\n'")
	got, err := ProbeTmux(context.Background(), envOf("TERM", "xterm-kitty"))
	if err != nil || got != (Tmux{}) {
		t.Errorf("outside tmux: %+v, %v", got, err)
	}
	if _, err := os.Stat(args); err == nil {
		t.Error("tmux was run outside tmux")
	}
}

// Against a real tmux server (skipped where tmux is not installed): the
// option is read through the format, and with no client attached the
// terminal is empty.
func TestProbeTmuxReal(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	sock := filepath.Join(t.TempDir(), "s")
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("new-session", "-d", "-s", "probe", "-x", "80", "-y", "24", "sleep 60")
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", sock, "kill-server").Run() })
	pid := run("display-message", "-p", "#{pid}")
	pane := run("display-message", "-p", "-t", "probe", "#{pane_id}")
	env := envOf("TMUX", sock+","+pid+",0", "TMUX_PANE", pane)
	t.Setenv("TMUX", sock+","+pid+",0") // the tmux client finds its server by it

	run("set-option", "-g", "allow-passthrough", "off")
	got, err := ProbeTmux(context.Background(), env)
	if err != nil || got != (Tmux{}) {
		t.Errorf("passthrough off: %+v, %v", got, err)
	}
	run("set-option", "-g", "allow-passthrough", "on")
	got, err = ProbeTmux(context.Background(), env)
	if err != nil || got != (Tmux{Passthrough: true}) {
		t.Errorf("passthrough on: %+v, %v", got, err)
	}
}
