package desktop

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Open shows a file (or a folder) in the desktop's default app: xdg-open
// on Wayland and X11, open on macOS, PowerShell's Start-Process on Windows
// (not "cmd /c start", which expands %VARIABLES% and reads & and ^ inside
// a file name). The opener runs in a session of its own, so the viewer
// outlives parley and no signal to parley's terminal reaches it.
//
// Open waits until the opener exits, at most Timeout: an opener that fails
// says why within that time (a missing default app, a broken file
// association), while a viewer started in the opener's foreground is left
// running and Open returns nil. The process is then reaped by a goroutine
// that ends when the viewer does; it holds nothing of parley's.
//
// Errors are one sentence. On Linux without a graphical session it refuses
// (ErrNoTool) rather than let xdg-open start a text-mode browser on top of
// the chat. Call it from a tea.Cmd.
func (s System) Open(ctx context.Context, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("cannot open %q: the working directory is unknown (%v); give the full path", path, err)
	}
	if _, err := os.Stat(abs); err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("cannot open %q: there is no such file; it may have been moved or deleted", abs)
		case errors.Is(err, fs.ErrPermission):
			return fmt.Errorf("cannot open %q: permission denied; check the permissions of its folder", abs)
		}
		return fmt.Errorf("cannot open %q: %v", abs, err)
	}
	var (
		name, bin string
		args, env []string
		hint      string
	)
	switch s.session() {
	case macOS:
		name, bin, args = "open", s.find("open"), []string{abs}
		hint = "choose an app for this kind of file in the Finder (Get Info, Open with)"
		if bin == "" {
			return newError(ErrNoTool, fmt.Sprintf("cannot open %q: open was not found on PATH; it comes with macOS, so check PATH", abs))
		}
	case windows:
		name, bin = s.powershell()
		if bin == "" {
			return psMissing(fmt.Sprintf("open %q", abs))
		}
		args, env = psArgs(psOpen), []string{"PARLEY_OPEN_PATH=" + abs}
		hint = "choose a default app for this kind of file in Windows' settings"
	case wayland, x11:
		name, bin, args = "xdg-open", s.find("xdg-open"), []string{abs}
		hint = "set a default app for this kind of file (for PNG: xdg-mime default <app>.desktop image/png)"
		if bin == "" {
			return newError(ErrNoTool, fmt.Sprintf("cannot open %q: install xdg-utils (xdg-open) to open files from parley", abs))
		}
	default:
		return newError(ErrNoDesktop, fmt.Sprintf("cannot open %q: %s, so there is no viewer to show it in", abs, s.noSessionReason()))
	}
	return s.startOpener(ctx, name, bin, args, env, abs, hint)
}

// startOpener starts the opener detached and waits for it as Open says.
func (s System) startOpener(ctx context.Context, name, bin string, args, env []string, abs, hint string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	detach(cmd)
	// stderr is a pipe the viewer may inherit and keep; WaitDelay closes it
	// soon after the opener itself exits.
	stderr := &capBuffer{max: stderrKeep, drop: true}
	cmd.Stderr = stderr
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot open %q: %s could not be run (%v)", abs, name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(s.timeout())
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		return nil // the viewer runs in the opener's foreground
	case <-ctx.Done():
		return ctx.Err()
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		return nil
	case errors.As(err, &exitErr):
		te := &ToolError{Tool: name, Status: exitErr.ProcessState.String(), Stderr: excerpt(stderr.Bytes())}
		return fmt.Errorf("cannot open %q: %w; %s", abs, te, hint)
	}
	return fmt.Errorf("cannot open %q: %s failed (%v)", abs, name, err)
}
