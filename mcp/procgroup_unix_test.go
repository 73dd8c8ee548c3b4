//go:build unix

package mcp

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"parley/config"
)

func TestStoppingKillsWhatTheServerStarted(t *testing.T) {
	m := New(t.Context(), Options{Environ: os.Environ(), Servers: []config.MCPServer{fake(t, "parent", "serve")}})
	m.Start()
	settle(t, m)
	file := filepath.Join(t.TempDir(), "pid")
	if _, err := m.Call(t.Context(), "spawn", `{"file": `+strconv.Quote(file)+`}`); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil {
		t.Fatalf("pid file %q", b)
	}
	m.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the server's child %d outlived parley", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func gone(pid int) bool {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			return b[i+2] == 'Z' || b[i+2] == 'X'
		}
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
