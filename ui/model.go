package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/chat"
	"parley/internal/desktop"
	"parley/themes"
	"parley/ui/overlay"
	"parley/ui/sidepane"
	"parley/ui/transcript"
	"parley/ui/uictx"
)

// Model is the root model of the chat screen. It owns the UI context, the
// conversation and every component; state changes only in Update, and View
// only returns the frame Update composed.
//
// The parts of the screen are children with methods of their own (the
// transcript, the composer, the layers in the stack, the side pane); the
// status bar, hint line, banner and window title are derived: chrome
// redraws each when the key of its inputs changes, so no handler has to
// remember to.
type Model struct {
	ctx  *uictx.Context
	opts Options
	now  func() time.Time
	// base is the program's context: streams and probes derive from it.
	base context.Context

	// eng is the chat engine: the conversation on screen and its
	// listeners, the model of the next turn and what is known of models,
	// the gateway clients, the reply or image run in flight and what a
	// send waits for. The UI presents what it reports.
	eng  *chat.Engine
	tr   *transcript.Transcript
	comp composer
	// screen is the layout, the derived chrome and the composed frame.
	screen screen

	// turn is what the next send needs to know; spin is the status of
	// the reply in flight; images is what was last asked of /image.
	turn   turnState
	spin   spinner
	images imageRunner

	// layers are the open overlays, the top one last; pane is the side
	// pane (nil when closed); focus says which part has the keys when no
	// layer is open.
	layers layerStack
	pane   sidepane.Pane
	focus  focus
	// actions is the action table (keys and slash commands); menu is the command
	// list above the composer.
	actions actionTable
	menu    commandMenu
	// hist is the sessions store, its recorder, the session being opened
	// and the draft.
	hist history
	// pics are the image previews (pictures.go).
	pics pictures
	// desktop reads and writes the system clipboard and opens files.
	desktop desktop.System
	// work is the conversation's background work, stopped when it is left.
	work work
	// term is what the terminal told us and the theme it shows.
	term terminal

	notes notices
	// armed holds the keys that wait for a second press or a digit.
	armed armed

	// cmp is a compare: the models the next message goes to, and the
	// columns of the replies it made (compare.go).
	cmp compare

	quitting bool
}

// turnState is what the UI remembers of the turns it said something
// about.
type turnState struct {
	// droppedSaid is the conversation whose failed messages left out of
	// the request were said; it is said once a conversation.
	droppedSaid string
}

// terminal is what the terminal reported and the theme it shows.
type terminal struct {
	// themeName is the configured theme ("auto", "dark", …) and darkBG,
	// for auto, the terminal's background once known.
	themeName string
	darkBG    bool
	// profile is the terminal's colour profile (16 colours get their own
	// role colours).
	profile colorprofile.Profile
	themes  *themes.Set

	mouse    bool
	enhanced bool // the terminal reports shift+enter and friends
	// graphemes: the terminal measures text by grapheme cluster (mode
	// 2027), as the layout does; without it the frame is rewritten so
	// both measures agree (cells.ForWcWidth).
	graphemes bool
	// started is when the model was made: keys typed ahead of the first
	// frame arrive right after it, and before answered (the terminal has
	// answered a query of parley's: see typedAhead).
	started  time.Time
	answered bool
	// clip is a clipboard read through the terminal in flight (over SSH).
	clip termClip
}

// armed holds the keys that wait: a first ctrl+c (a second within
// quitWindow quits), a first new-conversation key with history on screen,
// and a copy_code prefix key waiting for its digit.
type armed struct {
	quit, newConv time.Time
	codePrefix    bool
}

// again reports whether the key armed at *at is pressed a second time
// within quitWindow; otherwise this press arms it.
func (a *armed) again(at *time.Time, now time.Time) bool {
	if !at.IsZero() && now.Sub(*at) <= quitWindow {
		*at = time.Time{}
		return true
	}
	*at = now
	return false
}

// quitWindow is how long a first ctrl+c (or new-conversation key) waits
// for its second press.
const quitWindow = 1500 * time.Millisecond

// Init asks the terminal for its background colour (for the auto theme)
// and starts the first-run probes when the setup screen is open, or builds
// the first model's client.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.term.themeName == "auto" || m.term.themeName == "" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if s, ok := topIs[*overlay.Setup](&m.layers); ok {
		cmds = append(cmds, s.Start())
	} else {
		cmds = append(cmds, prepareClient(m.eng.Clients(), m.eng.Model()))
	}
	if m.hist.Store != nil {
		cmds = append(cmds, waitStoreOpen(m.base, m.hist.Store))
	}
	if m.hist.rec != nil {
		cmds = append(cmds, waitRecorder(m.hist.rec), waitOthers(m.hist.rec))
	}
	if m.hist.SessionID != "" {
		cmds = append(cmds, m.openSession(m.hist.SessionID, 0))
	}
	cmds = append(cmds, m.pics.probe(m.opts.Getenv), waitServers(m.opts.MCP), prepareAfterStart())
	return tea.Batch(cmds...)
}
