package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/themes"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/transcript"
	"parley/ui/uictx"
)

// Model is the root model of the chat screen. It owns the UI context, the
// conversation and every component; state changes only in Update, and View
// only joins strings cached by Update.
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
	catalog *api.Catalog
	clients map[string]*api.Client
	// newClient builds a client for a model (main's, or the one the setup
	// screen chose).
	newClient func(model string) (*api.Client, error)

	model string // the model the next turn uses

	// The reply in flight (nil when idle), the next stream id, and the stats
	// of the last finished reply.
	stream    *activeStream
	nextID    int
	lastUsage *api.Usage
	lastRate  float64 // tokens per second of the last reply (0: unknown)
	trimmed   int     // messages left out of the last request (max_history_messages)

	// Overlays.
	overlay     overlayKind
	openKind    openOverlay
	help        overlay.Help
	picker      overlay.Picker
	setup       overlay.Setup
	themeBefore string // theme to restore when a live theme picker is cancelled
	// pickerGen numbers model picker openings, so a gateway model list
	// that arrives after the picker closed (or reopened) is dropped.
	pickerGen int

	// Theme: the configured name ("auto", "dark", …) and, for auto, the
	// terminal's background once known.
	themeName string
	darkBG    bool
	bgKnown   bool
	themes    *themes.Set

	mouse    bool
	enhanced bool // the terminal reports shift+enter and friends

	toast      toast
	quitArmed  time.Time // first ctrl+c; a second within quitWindow quits
	newArmed   time.Time // first new-conversation key with history
	codePrefix bool      // a copy_code prefix key waits for its digit
	banner     []string  // start-up problems, until dismissed

	// Cached renderings, refreshed in Update.
	statusView  string
	hintView    string
	hintKey     string            // what hintView shows, to skip redrawing it
	hintWasHint bool              // hintView shows the hint (not a toast)
	hintParts   map[string]string // styled hint pieces of style generation hintGen
	hintGen     int
	bannerView  string
	emptyView   string // the transcript area of an empty conversation
	overlayView string
	windowTitle string
	// screen is the whole frame, joined at the end of each Update.
	screen string

	// ticking: a frame tick without a stream is pending (lazy re-render
	// after a resize or theme change).
	ticking bool

	quitting bool
}

// openOverlay names the overlay that is open.
type openOverlay int

const (
	openNone openOverlay = iota
	openHelp
	openModels
	openThemes
	openSetup
)

// activeStream is the reply in flight.
type activeStream struct {
	id      int // stream id: batches of other streams are ignored
	replyID int // conversation message id of the reply
	model   string
	ctx     context.Context
	cancel  context.CancelFunc
	pump    *pump
	started time.Time
	first   time.Time // first text (zero until then)
	chars   int       // runes received, for the tokens/s estimate
	usage   *api.Usage
	frame   int // spinner frame
}

// quitWindow is how long a first ctrl+c (or new-conversation key) waits
// for its second press.
const quitWindow = 1500 * time.Millisecond

// Init asks the terminal for its background colour (for the auto theme)
// and starts the first-run probes when the setup screen is open.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.themeName == "auto" || m.themeName == "" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.openKind == openSetup {
		var cmd tea.Cmd
		m.setup, cmd = m.setup.Start()
		cmds = append(cmds, cmd)
	} else {
		cmds = append(cmds, m.prepareClient(m.model))
	}
	return tea.Batch(cmds...)
}

// keyMap is the live key map.
func (m *Model) keyMap() *keys.Map { return &m.ctx.Keys }
