//go:build unix

package procgroup

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gone reports whether pid has exited (a zombie counts: it runs nothing
// and holds no files).
func gone(pid int) bool {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			return b[i+2] == 'Z' || b[i+2] == 'X'
		}
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// childPID waits for the pid a script wrote to file.
func childPID(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("the script wrote %q", b)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatal("the script never wrote its child's pid")
		}
	}
}

func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !gone(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) is still running", what, pid)
		}
	}
}

// A timeout kills the command and the child it started, not just the
// command: the child would hold the output open and live on.
func TestTimeoutKillsTheGroup(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", `sleep 60 & echo $! > "$0"; wait`, file)
	cmd.WaitDelay = time.Second
	Set(cmd)
	start := time.Now()
	err := cmd.Run()
	if err == nil || ctx.Err() == nil {
		t.Fatalf("the command ended with %v before its timeout", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Run returned %v after a 300 ms timeout", took)
	}
	waitGone(t, childPID(t, file), "the script's background child")
}

// Kill stops what a command left running after it exited.
func TestKillStopsLeftovers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pid")
	cmd := exec.CommandContext(context.Background(), "sh", "-c", `sleep 60 >/dev/null 2>&1 & echo $! > "$0"`, file)
	Set(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := childPID(t, file)
	if gone(pid) {
		t.Fatal("the background child ended on its own; the test shows nothing")
	}
	Kill(cmd)
	waitGone(t, pid, "the leftover child")
	Kill(exec.Command("true")) // never started: nothing to do
}
