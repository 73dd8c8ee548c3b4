package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"parley/internal/procgroup"
	"parley/media"
)

// errTooMuch is a tool that printed more than its run allows; the caller
// says what was too large.
var errTooMuch = errors.New("the tool printed more than parley reads")

// stderrKeep is how much of a tool's stderr is kept for its error message.
const stderrKeep = 4 << 10

// tool is one run of a desktop tool.
type tool struct {
	name  string // as the user knows it: "wl-paste"
	path  string // as LookPath found it
	args  []string
	stdin []byte   // nil reads /dev/null
	env   []string // added to parley's own environment
	limit int64    // the most stdout kept; more is errTooMuch
	// head, when not nil, looks at the start of stdout once headLook bytes
	// came: an error stops the tool and is what the run returns, so what
	// is refused from its first bytes is not read to the end. (A shorter
	// output is whole; the caller checks it.)
	head func([]byte) error
	// serves is a tool that leaves a process behind to serve the clipboard
	// (wl-copy, xclip -i). Its standard streams are files, not pipes: a
	// pipe held open by that process would keep the run waiting until the
	// clipboard changes hands.
	serves bool
	// wait replaces the System's time limit for a tool that waits for the
	// user (a screenshot's region selection); 0 keeps it.
	wait time.Duration
}

// limitFor is how long the tool may run.
func (s System) limitFor(t tool) time.Duration {
	if t.wait > 0 {
		return t.wait
	}
	return s.timeout()
}

// run runs the tool within the System's time limit and returns its stdout.
// On a timeout the tool's whole process group is killed and the error wraps
// ErrTimeout; when ctx itself ends the tool is killed the same way and
// ctx's error is returned. A tool that exits with an error gives a
// *ToolError carrying the start of its stderr.
func (s System) run(ctx context.Context, t tool) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tctx, cancel := context.WithTimeout(ctx, s.limitFor(t))
	defer cancel()
	cmd := exec.CommandContext(tctx, t.path, t.args...)
	if len(t.env) > 0 {
		cmd.Env = append(os.Environ(), t.env...)
	}
	cmd.WaitDelay = waitDelay
	procgroup.Set(cmd)

	out := &capBuffer{max: t.limit, head: t.head}
	errOut := &capBuffer{max: stderrKeep, drop: true}
	var errFile *os.File
	if t.serves {
		dir, err := os.MkdirTemp("", "parley-clipboard-")
		if err != nil {
			return nil, fmt.Errorf("cannot run %s: making a temporary folder failed (%w)", t.name, err)
		}
		defer os.RemoveAll(dir)
		in, err := writeTemp(dir, "stdin", t.stdin)
		if err != nil {
			return nil, fmt.Errorf("cannot run %s: writing a temporary file failed (%w)", t.name, err)
		}
		defer in.Close()
		if errFile, err = os.Create(filepath.Join(dir, "stderr")); err != nil {
			return nil, fmt.Errorf("cannot run %s: making a temporary file failed (%w)", t.name, err)
		}
		defer errFile.Close()
		cmd.Stdin, cmd.Stderr = in, errFile
	} else {
		if t.stdin != nil {
			cmd.Stdin = bytes.NewReader(t.stdin)
		}
		cmd.Stdout, cmd.Stderr = out, errOut
	}

	err := cmd.Run()
	if errFile != nil {
		if _, serr := errFile.Seek(0, io.SeekStart); serr == nil {
			io.Copy(errOut, io.LimitReader(errFile, stderrKeep))
		}
	}
	var exitErr *exec.ExitError
	switch {
	case out.refused != nil:
		media.Reclaim(out.dropped)
		return nil, out.refused
	case out.over:
		media.Reclaim(out.dropped)
		return nil, errTooMuch
	case err == nil:
		return out.Bytes(), nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case tctx.Err() != nil:
		return nil, newError(ErrTimeout, fmt.Sprintf("%s did not answer within %v, so parley stopped it", t.name, s.limitFor(t)))
	case errors.Is(err, exec.ErrWaitDelay):
		// The tool exited successfully, but a process it started still
		// holds its output. What the tool printed is complete; the
		// leftover is stopped, unless it is the clipboard's server.
		if !t.serves {
			procgroup.Kill(cmd)
		}
		return out.Bytes(), nil
	case errors.As(err, &exitErr):
		return nil, &ToolError{Tool: t.name, Status: exitErr.ProcessState.String(), Stderr: excerpt(errOut.Bytes())}
	}
	return nil, fmt.Errorf("%s could not be run (%v)", t.name, err)
}

// writeTemp writes data to a new file in dir and returns it open for
// reading from the start.
func writeTemp(dir, name string, data []byte) (*os.File, error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// headLook is how much of a tool's output a tool's head func sees: the
// header of any image format, with room for the metadata segments a JPEG
// may put before its frame header.
const headLook = 64 << 10

// Chunks of a capBuffer: the first is small (most outputs are a few
// hundred bytes), each next one twice the last, up to maxChunk.
const (
	firstChunk = 4 << 10
	maxChunk   = 4 << 20
)

// capBuffer keeps at most max bytes. Past that it fails the write, so
// os/exec stops copying and closes the pipe (the tool gets EPIPE instead
// of parley reading on), or, with drop, silently discards the rest. It
// fills chunks instead of one growing slice, so a large output leaves no
// trail of ever larger copies behind (a 256 MB image read into a
// bytes.Buffer allocates 512 MB), and joins them once, at the end.
type capBuffer struct {
	chunks [][]byte
	n      int64
	max    int64
	over   bool
	drop   bool
	// head and its outcome: see tool.head.
	head    func([]byte) error
	looked  bool
	refused error
	// dropped is how much was let go when the output was refused or went
	// over max.
	dropped int64
}

func (w *capBuffer) Write(b []byte) (int, error) {
	if w.refused != nil {
		return 0, w.refused
	}
	room := w.max - w.n
	take := b
	if int64(len(b)) > room {
		take = b[:max(room, 0)]
	}
	w.append(take)
	if w.head != nil && !w.looked && w.n >= headLook {
		w.looked = true
		if err := w.head(w.Bytes()); err != nil {
			w.refused = err
			w.letGo()
			return 0, err
		}
	}
	if len(take) == len(b) {
		return len(b), nil
	}
	if w.drop {
		return len(b), nil
	}
	w.over = true
	w.letGo()
	return 0, errTooMuch
}

// letGo drops what was kept.
func (w *capBuffer) letGo() {
	w.dropped += w.n
	w.chunks, w.n = nil, 0
}

// append copies b into the chunks.
func (w *capBuffer) append(b []byte) {
	for len(b) > 0 {
		if k := len(w.chunks); k == 0 || len(w.chunks[k-1]) == cap(w.chunks[k-1]) {
			size := firstChunk
			if k > 0 {
				size = min(2*cap(w.chunks[k-1]), maxChunk)
			}
			w.chunks = append(w.chunks, make([]byte, 0, size))
		}
		last := &w.chunks[len(w.chunks)-1]
		n := min(len(b), cap(*last)-len(*last))
		*last = append(*last, b[:n]...)
		w.n += int64(n)
		b = b[n:]
	}
}

// Bytes is everything kept, in one slice: joined into one allocation of
// the exact size once (and kept joined), or the only chunk itself.
func (w *capBuffer) Bytes() []byte {
	switch len(w.chunks) {
	case 0:
		return nil
	case 1:
		return w.chunks[0]
	}
	all := make([]byte, 0, w.n)
	for _, c := range w.chunks {
		all = append(all, c...)
	}
	w.chunks = [][]byte{all}
	return all
}
