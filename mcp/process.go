package mcp

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"parley/config"
	"parley/internal/procgroup"
)

// stderrTail is how much of what a server writes to stderr is kept, for
// the reason of its failure.
const stderrTail = 2 << 10

// process is a local server's program, in its own process group.
type process struct {
	cmd    *exec.Cmd
	stderr *tail
	done   chan struct{}
	err    error // Wait's error, read after done
}

// startProcess starts the program directly (no shell), with parley's
// environment plus the server's env, and connects to its stdin and stdout.
// What one message may hold is bounded, so a server that floods stops
// rather than filling memory.
// The program lives as long as ctx: its end kills the process group.
func startProcess(ctx context.Context, cfg config.MCPServer, o Options) (*process, sdk.Transport, error) {
	cmd := exec.CommandContext(ctx, cfg.Command, cfg.Args...)
	env := append([]string(nil), o.Environ...)
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	procgroup.Set(cmd)
	p := &process{cmd: cmd, stderr: &tail{max: stderrTail}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("%s could not be started: %w", cfg.Name, err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("%s could not be started: %w", cfg.Name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("%s could not be started (%s): check command in its [[mcp_servers]] entry", cfg.Name, oneLine(err.Error()))
	}
	// The program's end is noticed at once: its pipes then end too.
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	// Closing the session closes stdin: the program's cue to end.
	return p, &sdk.IOTransport{Reader: stdout, Writer: stdin, MaxLineLength: o.MaxMessageBytes}, nil
}

// exitReason says how the program ended, with the last line it wrote to
// stderr, or "" while it runs.
func (p *process) exitReason() string {
	select {
	case <-p.done:
	case <-time.After(100 * time.Millisecond):
		return ""
	}
	why := "exited"
	if p.err != nil {
		why = "exited (" + oneLine(p.err.Error()) + ")"
	}
	if last := p.stderr.lastLine(); last != "" {
		why += ": " + oneLine(last)
	}
	return why
}

// stop asks the program to end by closing its stdin (the session did),
// waits up to grace, then kills its whole process group.
func (p *process) stop(grace time.Duration) {
	select {
	case <-p.done:
	case <-time.After(grace):
	}
	procgroup.Kill(p.cmd) // whatever it started goes too
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
