package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestNothingAsksTmuxBeforeTheFirstFrame: run inside tmux, parley starts
// no `tmux info` at all (lipgloss's package-level writer ran one while the
// program initialised, before main, through colorprofile.Detect: 50–90 ms
// on a slow machine before the first frame could be drawn; parley's copy
// of colorprofile no longer does, see third_party/colorprofile) and asks
// tmux what it draws only after its first frame. A `tmux` first on PATH
// logs every invocation before it runs the real one.
func TestNothingAsksTmuxBeforeTheFirstFrame(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "tmux.log")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startParley(t, launch{Gateway: apitest.New(t), Config: chatConfig, Width: 100, Height: 30, inTmux: true, env: []string{"PATH=" + bin}})
	tm.waitText(composerReady)
	// The probe after the first frame is what shows the fake is the tmux
	// parley runs: wait for it, then look at everything it ran.
	var calls []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		calls = strings.Split(strings.TrimSpace(string(b)), "\n")
		if strings.Contains(string(b), "display-message") || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(strings.Join(calls, "\n"), "display-message") {
		t.Fatalf("parley never ran the tmux on its PATH (calls: %q); the test cannot see what it runs", calls)
	}
	for _, c := range calls {
		if strings.HasPrefix(c, "info") {
			t.Fatalf("parley ran `tmux %s` (all calls: %q); nothing before the first frame may wait for tmux", c, calls)
		}
	}
}
