package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/api"
	"parley/conversation"
	"parley/internal/desktop"
	"parley/session"
	"parley/themes"
	"parley/ui/keys"
	"parley/ui/slash"
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

	conv    *conversation.Conversation
	tr      *transcript.Transcript
	comp    composer
	lay     layout
	layIn   layoutInput // what lay was computed from
	catalog *api.Catalog
	clients *clientPool

	model string // the model the next turn uses
	// pendingSend: a send waits for its model's client to be built.
	pendingSend bool
	// withoutImages names the model that cannot see the images of earlier
	// messages, once the user was told; the next send to it leaves them
	// out.
	withoutImages string

	// The reply in flight (nil when idle), the next stream id, and the
	// stats of the last finished reply.
	stream    *activeStream
	nextID    int
	lastUsage *api.Usage
	lastRate  float64 // tokens per second of the last reply (0: unknown)
	trimmed   int     // messages left out of the last request (max_history_messages)

	// layers are the open overlays, the top one last; pickerGen numbers
	// model picker openings (a late gateway list is dropped).
	layers    layerStack
	pickerGen int
	// pane is the side pane, nil when closed.
	pane sidePane
	// commands is the slash command registry; menu is the command list
	// above the composer.
	commands *slash.Registry[commandEnv]
	menu     slash.List[commandEnv]
	// hist is the sessions store (or why there is none) and rec its
	// recorder; loading is the id of a session being opened, loadGen
	// numbers openings.
	hist    History
	rec     *session.Recorder
	loading string
	loadGen int
	// The draft: what was last written, a key of the composer's content,
	// and the number of the pending save.
	draftSaved string
	draftKey   string
	draftGen   int
	// pics are the image previews (pictures.go).
	pics pictures
	// imageRun is the image turn in flight (images.go); lastImageModel and
	// lastImageAsk are the last ones asked for, for the next /image and
	// for a retry.
	imageRun       *imageRun
	lastImageModel string
	lastImageAsk   imageAsk
	// desktop reads and writes the system clipboard and opens files.
	desktop desktop.System
	// gatewayModels is the gateway's model list, once the model picker
	// asked for it (for completion and the vision refusal).
	gatewayModels []string

	// Theme: the configured name ("auto", "dark", …) and, for auto, the
	// terminal's background once known.
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
	// frame arrive right after it.
	started time.Time

	notes      notices
	quitArmed  time.Time // first ctrl+c; a second within quitWindow quits
	newArmed   time.Time // first new-conversation key with history
	codePrefix bool      // a copy_code prefix key waits for its digit

	// chrome holds the derived renderings (status, hint, banner, title,
	// the empty conversation's welcome).
	chrome chrome
	// screen is the whole frame, composed at the end of each Update.
	screen string

	// ticking: a frame tick without a stream is pending (lazy re-render
	// after a resize or theme change).
	ticking bool

	quitting bool
}

// activeStream is the reply in flight.
type activeStream struct {
	id      int // stream id: frame ticks of other streams are ignored
	turn    *conversation.Turn
	model   string
	ctx     context.Context
	cancel  context.CancelFunc
	pump    *pump
	started time.Time
	first   time.Time // first text (zero until then)
	last    time.Time // last data (text or keep-alive) from the gateway
	chars   int       // runes received, for the tokens/s estimate
	frame   int       // spinner frame
	shown   time.Time // when the status of the reply last changed (spinnerStep)
	// retry is the gateway client's latest retry notice (nil when none).
	retry *api.RetryNotice
}

// quitWindow is how long a first ctrl+c (or new-conversation key) waits
// for its second press.
const quitWindow = 1500 * time.Millisecond

// Init asks the terminal for its background colour (for the auto theme)
// and starts the first-run probes when the setup screen is open, or builds
// the first model's client.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.themeName == "auto" || m.themeName == "" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if s, ok := m.layers.top().(*setupLayer); ok {
		cmds = append(cmds, s.start())
	} else {
		cmds = append(cmds, m.clients.prepare(m.model))
	}
	if m.rec != nil {
		cmds = append(cmds, waitRecorder(m.rec))
	}
	if m.hist.SessionID != "" {
		cmds = append(cmds, m.openSession(m.hist.SessionID, 0))
	}
	cmds = append(cmds, m.probeTmux())
	return tea.Batch(cmds...)
}

// keyMap is the live key map.
func (m *Model) keyMap() *keys.Map { return &m.ctx.Keys }
