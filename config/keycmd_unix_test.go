//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// running reports whether pid is a live process (a zombie waiting for a
// parent that does not reap it counts as gone).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// TestConfigKeyCmdBackgroundChild: a command that prints the key and exits
// but leaves a background process holding its output is refused in plain
// words within about a second, and that process is killed.
func TestConfigKeyCmdBackgroundChild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p := providerFrom(t, nil, "api_key_cmd = 'echo sk-from-cmd; sleep 30 & echo $! > "+pidFile+"'\n")
	start := time.Now()
	_, err := p.APIKey()
	took := time.Since(start)
	var ke *KeyError
	if !errors.As(err, &ke) || ke.Provider != "gw" {
		t.Fatalf("err %T %v", err, err)
	}
	msg := err.Error()
	for _, want := range []string{`provider "gw": api_key_cmd exited but left a background process running`, ">/dev/null"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "WaitDelay") || strings.Contains(msg, "sk-from-cmd") {
		t.Errorf("message %q shows Go's words or the output", msg)
	}
	if took > 3*time.Second {
		t.Errorf("took %v", took)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for running(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the background process %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestConfigKeyErrorsShareOneType: every way a key cannot be resolved is a
// *KeyError, so the command line gives them one exit status.
func TestConfigKeyErrorsShareOneType(t *testing.T) {
	for _, lines := range []string{
		"api_key_cmd = 'exit 3'\n",
		"api_key_cmd = 'true'\n",
		"api_key_cmd = 'printf \"sk-\\033[2J\\n\"'\n",
		"api_key_env = \"UNSET_KEY_VAR\"\n",
		"api_key = \"sk-with\\ttab\"\n",
	} {
		p := providerFrom(t, nil, lines)
		p.keyCmdTimeout = time.Second
		_, err := p.ClientConfig("ua")
		var ke *KeyError
		if !errors.As(err, &ke) {
			t.Errorf("%s: err %T %v", lines, err, err)
		}
		if err != nil && strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%s: the error shows the output: %q", lines, err)
		}
	}
}
