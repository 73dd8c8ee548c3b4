// Package signals is parley's one owner of process signals. main starts it
// before anything else; nothing else in parley calls signal.Notify, and
// Bubble Tea's own handler is turned off (tea.WithoutSignalHandler), so a
// signal never has two receivers that could wait on each other.
//
// SIGINT, SIGTERM and SIGHUP cancel the context every command runs under;
// the command then returns and main exits with 128 + the signal's number
// (130, 143, 129). A process that has not exited a grace period after the
// first of them (stuck in a read of a FIFO, a slow api_key_cmd, an image
// decode) is ended anyway, and a second one ends it at once; both times the
// terminal is put back first when the full-screen chat holds it.
//
// While the chat runs, SIGTSTP and SIGCONT are caught too and handed to it
// (see JobControl): the chat releases the terminal before the process
// stops and takes it back, redrawn, when it continues.
package signals

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"time"
)

const (
	// DefaultGrace is how long the process may take to exit on its own
	// after the first termination signal. The chat restores the terminal
	// and exits in a few milliseconds; the rest is for a recorder finishing
	// a write, and for a loaded machine, so that the process is gone within
	// about a second either way.
	DefaultGrace = 500 * time.Millisecond
	// restoreWait bounds the emergency terminal restore: a write to a
	// terminal that is not being read (flow control, a stuck multiplexer)
	// must not keep the process alive.
	restoreWait = 200 * time.Millisecond
)

// resetSequence turns off everything the chat turns on, for the case where
// the process has to exit before the chat could restore the terminal:
// mouse reporting, focus events, bracketed paste, the kitty keyboard
// protocol and modifyOtherKeys, synchronized output, a hidden cursor or a
// cursor shape, the cursor's colour and the window title (cleared, as
// Bubble Tea does at exit), attributes, and the alternate screen (left
// last, so the shell's screen comes back clean).
const resetSequence = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l" +
	"\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[>4m\x1b[?2026l" +
	"\x1b[0 q\x1b]112\x07\x1b]2;\x07\x1b[m\x1b[?25h\x1b[?1049l"

// Terminal is the terminal the chat takes over, as the process found it.
type Terminal struct {
	// Out receives the reset sequence (the terminal's output side).
	Out io.Writer
	// Restore puts back the tty modes saved at start (cooked mode, echo).
	Restore func() error
}

// Options configures Start. The zero value is what main uses.
type Options struct {
	// Terminal is restored when the process must exit while the chat holds
	// it; nil means there is no terminal to restore.
	Terminal *Terminal
	// Grace replaces DefaultGrace.
	Grace time.Duration
	// Exit ends the process (os.Exit); tests replace it.
	Exit func(code int)
	// CanStop replaces the check whether stopping the process can work
	// (job control; see canStop).
	CanStop func() bool
}

// Owner holds the process's signal handling from Start until the process
// exits (tests stop it with Close).
type Owner struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	opts   Options

	sigs    chan os.Signal // termination signals
	jobs    chan os.Signal // SIGTSTP and SIGCONT while the chat runs
	done    chan struct{}  // closed by Close (tests)
	stopped chan struct{}  // closed when the loop has ended

	restoreOnce sync.Once
	restored    chan struct{} // closed when the emergency restore ended

	mu       sync.Mutex
	first    os.Signal   // the first termination signal, nil before
	watchdog *time.Timer // started by the first termination signal
	attached bool        // the chat holds the terminal
	stops    chan struct{}
	conts    chan struct{}
}

// Start takes over the termination signals and returns the owner, whose
// Context is cancelled by the first of them.
func Start(parent context.Context, opts Options) *Owner {
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.Exit == nil {
		opts.Exit = os.Exit
	}
	if opts.CanStop == nil {
		// Decided now: whether SIGTSTP is ignored can only be read before
		// this process catches it.
		can := canStop()
		opts.CanStop = func() bool { return can && jobControlled() }
	}
	ctx, cancel := context.WithCancelCause(parent)
	o := &Owner{
		ctx:      ctx,
		cancel:   cancel,
		opts:     opts,
		sigs:     make(chan os.Signal, 4),
		jobs:     make(chan os.Signal, 4),
		done:     make(chan struct{}),
		stopped:  make(chan struct{}),
		restored: make(chan struct{}),
	}
	signal.Notify(o.sigs, terminationSignals...)
	go o.loop()
	return o
}

// Context is cancelled by the first termination signal; its cause is a
// *SignalError naming the signal.
func (o *Owner) Context() context.Context { return o.ctx }

// ExitCode is the status the process should exit with: 128 + the number of
// the termination signal it received, else code.
func (o *Owner) ExitCode(code int) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.first != nil {
		return exitCode(o.first)
	}
	return code
}

// SignalError is the cause of the context's cancellation.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return fmt.Sprintf("stopped by %s", signalName(e.Signal))
}

func (o *Owner) loop() {
	defer close(o.stopped)
	for {
		select {
		case <-o.done:
			return
		case s := <-o.sigs:
			o.terminate(s)
		case s := <-o.jobs:
			o.job(s)
		}
	}
}

// terminate handles SIGINT, SIGTERM and SIGHUP: the first cancels the
// context and starts the watchdog; any later one ends the process now.
func (o *Owner) terminate(s os.Signal) {
	o.mu.Lock()
	if o.first != nil {
		o.mu.Unlock()
		// The loop must stay free to take a third signal while this one
		// restores the terminal.
		go o.forceExit(exitCode(s))
		return
	}
	o.first = s
	code := exitCode(s)
	o.watchdog = time.AfterFunc(o.opts.Grace, func() { o.forceExit(code) })
	o.mu.Unlock()
	o.cancel(&SignalError{Signal: s})
}

// forceExit restores the terminal if the chat still holds it, waiting for
// that at most restoreWait, and ends the process.
func (o *Owner) forceExit(code int) {
	o.restoreOnce.Do(func() {
		go func() {
			defer close(o.restored)
			o.restoreTerminal()
		}()
	})
	t := time.NewTimer(restoreWait)
	defer t.Stop()
	select {
	case <-o.restored:
	case <-t.C:
	}
	o.opts.Exit(code)
}

// restoreTerminal puts the terminal back if the chat holds it. Once the
// chat has returned it restored the terminal itself, and writing the reset
// sequence to the shell's screen then would only disturb it.
func (o *Owner) restoreTerminal() {
	o.mu.Lock()
	attached := o.attached
	o.attached = false
	o.mu.Unlock()
	t := o.opts.Terminal
	if !attached || t == nil {
		return
	}
	if t.Out != nil {
		_, _ = io.WriteString(t.Out, resetSequence)
	}
	if t.Restore != nil {
		_ = t.Restore()
	}
}
