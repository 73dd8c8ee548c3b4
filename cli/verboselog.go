package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"parley/internal/bytesize"
)

// maxVerboseLog caps the chat's trace file: a long session, or a gateway
// sending huge headers, must not fill the disk.
const maxVerboseLog = 16 << 20

// verboseLogPath is where the chat writes its --verbose trace (stderr is
// the chat's screen): $XDG_STATE_HOME/parley/verbose.log, the XDG place for
// logs, with XDG_STATE_HOME defaulting to ~/.local/state (a relative value
// is ignored, as the XDG spec says).
func (a *app) verboseLogPath() (string, error) {
	dir := a.env.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		if a.env.HomeDir == "" {
			return "", usagef("--verbose in the chat writes its trace to a file, and neither XDG_STATE_HOME nor HOME says where; set one of them")
		}
		dir = filepath.Join(a.env.HomeDir, ".local", "state")
	}
	return filepath.Join(dir, "parley", "verbose.log"), nil
}

// verboseLog is the chat's trace file: each chat started with --verbose
// replaces the previous trace, and writing stops with a note at
// maxVerboseLog. Clients of several models write to it at once.
type verboseLog struct {
	path string
	mu   sync.Mutex
	f    *os.File
	left int64
	full bool
}

// openVerboseLog creates (or empties) the trace file, readable only by the
// user: a trace shows prompts' sizes, headers and gateway addresses.
func (a *app) openVerboseLog() (*verboseLog, error) {
	path, err := a.verboseLogPath()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("could not create the folder for the verbose log (%w); fix its permissions or run without --verbose", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("could not open the verbose log (%w); fix its permissions or run without --verbose", err)
	}
	return &verboseLog{path: path, f: f, left: maxVerboseLog}, nil
}

// Write appends one trace line. It never fails the request being traced:
// a full or broken log only loses trace lines.
func (l *verboseLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.full {
		return len(p), nil
	}
	if int64(len(p)) > l.left {
		l.full = true
		fmt.Fprintf(l.f, "parley: the trace stops here: the log reached its limit of %s\n", bytesize.Format(maxVerboseLog))
		return len(p), nil
	}
	n, err := l.f.Write(p)
	l.left -= int64(n)
	if err != nil {
		l.full = true
	}
	return len(p), nil
}

// Close closes the file; later writes (a client still tracing after the
// chat returned) are dropped.
func (l *verboseLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.full = true
	return l.f.Close()
}

var _ io.WriteCloser = (*verboseLog)(nil)
