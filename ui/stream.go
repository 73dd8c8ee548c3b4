package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/chat"
)

// Streaming: the engine (chat) starts a reply with a cancellable context
// and an id; runReply (a command) opens the stream and, in the goroutine
// Bubble Tea gives it, reads it into the reply's pump until the stream
// ends or the context is cancelled. The UI has the engine take what the
// pump gathered on the stream's frame tick: a delta wakes at most the goroutine that reads it
// (which pauses after each wait, so deltas are read in bursts), and the UI
// wakes once per frame however fast the gateway sends. Commands never touch
// the model; late ticks of a stopped stream are ignored by id.

// frameInterval is the frame tick while streaming: take the pump's text,
// re-render the reply's unfinished tail (as Markdown, every frame), advance
// the status bar. Ten frames a second keep pace with any stream (text shows
// at most a frame after it arrived) for about half the CPU
// of thirty: each frame costs the Markdown render of the tail and, in Bubble
// Tea's renderer, a parse and diff of the whole screen, whatever changed
// (BENCHMARKS.md, "Streaming in a real terminal").
const frameInterval = 100 * time.Millisecond

// rendererFPS is the most frames a second Bubble Tea's renderer writes
// (its default is 60). parley's copy of Bubble Tea wakes the renderer only
// when there is something to write (third_party/bubbletea/PATCHED.md): a
// frame after a pause, a key's echo or the first frame, is written at
// once, and views that change faster than this are written at this rate
// (two back to back first). Streams pace their own frames (streamFrame),
// so the rate matters for typing, scrolling and resizing: 45 keeps them
// within 22 ms of the key (BENCHMARKS.md, "The renderer's rate" and "The
// renderer wakes when there is a frame").
const rendererFPS = 45

// lazyInterval is the frame tick without a stream, while the transcript
// renders messages off screen after a resize or a theme change: short
// steps, so that the work is spread thin and done soon.
const lazyInterval = 33 * time.Millisecond

// spinnerStep is how often the status of a reply in flight (spinner,
// elapsed time, rate) changes: the status line is redrawn that often, not
// on every frame.
const spinnerStep = 100 * time.Millisecond

// readGap is how long the reader pauses before it waits for the network
// until the frame ticks have taken its pump twice, so that the deltas a
// gateway sends meanwhile are read together, in one system call, instead
// of waking parley one by one: at 200 small events a second each wake-up
// (the read, the Go scheduler and its monitor thread) costs more CPU than
// decoding the event. From then on the pump ends each pause just before
// the next frame takes it (chat.Pump.PauseFor), so the reader wakes once a
// frame and what it read shows at once. The decision to pause comes from
// what is buffered, never from the clock: while the stream holds unread
// bytes the reader goes on at once, so a fast gateway is never slowed down.
const readGap = frameInterval / 2

// frameMsg is the frame tick while a stream runs.
type frameMsg struct{ id int }

// runReply runs the reply's request in a command: the goroutine Bubble
// Tea gives it reads the stream into the reply's pump, pausing until just
// before the next frame (readGap at first) whenever the next event would
// have to come from the network, and
// belongs to the reply's context (stopping the reply ends it).
func runReply(r *chat.Reply) tea.Cmd {
	return func() tea.Msg {
		r.Run(readGap)
		return nil
	}
}

// frameTick is the next frame of stream id after d, or of the
// transcript's lazy work (id 0, after lazyInterval).
func frameTick(id int, d time.Duration) tea.Cmd {
	if id == 0 {
		d = lazyInterval
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return frameMsg{id: id} })
}

// streamFrame is the frame interval of a stream on a screen of w×h cells:
// frameInterval, longer on larger screens. Each frame costs Bubble Tea's
// renderer a parse and diff of the whole screen, so a frame of 200×60
// costs three times one of 80×24; spacing them keeps a 20 KB reply within
// about a second of CPU at every size (BENCHMARKS.md, "Streaming cost by
// screen size"), and text still shows within a fifth of a second.
func streamFrame(w, h int) time.Duration {
	switch area := w * h; {
	case area <= 2000:
		return frameInterval + 20*time.Millisecond
	case area <= 5000:
		return frameInterval + 50*time.Millisecond
	}
	return 2 * frameInterval
}

// spinner is the status of the reply in flight: its frame, and when it
// last changed (the status line changes every spinnerStep, not on every
// frame).
type spinner struct {
	frame int
	shown time.Time
}
