package overlay

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/uictx"
)

// SetupOptions configure the first-run setup screen.
type SetupOptions struct {
	// ConfigPath is the config file parley reads (shown in the explanation,
	// and where the root saves a chosen server).
	ConfigPath string
	// Context bounds the probes (the program's context); nil means
	// context.Background().
	Context context.Context
	// Candidates are the servers probed; nil means DefaultCandidates().
	Candidates []Candidate
	// Timeout bounds each probe; 0 means DefaultProbeTimeout.
	Timeout time.Duration
}

// SetupAction tells the root what the setup screen asks for.
type SetupAction int

// Setup actions.
const (
	// SetupNone: nothing for the root to do.
	SetupNone SetupAction = iota
	// SetupUse: use BaseURL and Model for this session (and write them to the
	// config file when Save is set), then show the chat.
	SetupUse
	// SetupQuit: the user asked to quit.
	SetupQuit
)

// SetupResult is returned by every Setup.Update.
type SetupResult struct {
	Action  SetupAction
	Server  string // the candidate's name ("Ollama")
	BaseURL string // "http://127.0.0.1:11434/v1"
	// Model is the model id exactly as the server listed it (untrusted:
	// sanitise before display).
	Model string
	// Save asks the root to write BaseURL and Model to the config file.
	Save bool
}

// Setup is the first-run screen, shown instead of the chat when no API key
// and no base URL are configured: it explains the environment variables and
// the config file, and offers the OpenAI-compatible servers found on
// loopback.
type Setup struct {
	ctx  *uictx.Context
	opts SetupOptions

	gen     int // the probe run whose results are wanted
	probing bool
	probed  bool // at least one probe run finished
	results []ProbeResult
	models  []string // per result: the model chosen with m ("" = first listed)

	cursor int // index into choices()
	scroll int // first visible line of the explanation
	// reading: on a screen too small for everything, pgdn gives the whole
	// screen to the explanation until esc (or another key) brings the
	// server list back.
	reading bool

	picking bool // the model picker is open for result pickFor
	pickFor int
	picker  Picker

	width, height int
}

// NewSetup returns the setup screen. Call Start to begin probing.
func NewSetup(ctx *uictx.Context, opts SetupOptions) Setup {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Candidates == nil {
		opts.Candidates = DefaultCandidates()
	}
	return Setup{ctx: ctx, opts: opts}
}

// Start begins a probe run and returns the command that performs it; route
// the ProbedMsg it returns to Update.
func (s *Setup) Start() tea.Cmd {
	var cmd tea.Cmd
	*s, cmd = s.start()
	return cmd
}

// start begins a probe run.
func (s Setup) start() (Setup, tea.Cmd) {
	s.gen++
	s.probing = true
	s.cursor = 0
	return s, ProbeCmd(s.opts.Context, s.opts.Candidates, s.opts.Timeout, s.gen)
}

// SetSize sets the area the screen draws in (the whole terminal).
func (s *Setup) SetSize(width, height int) {
	s.width, s.height = max(width, 0), max(height, 0)
	if s.picking {
		s.picker.SetSize(width, height)
	}
	s.clampScroll()
}

// Probing reports whether a probe run is in flight.
func (s Setup) Probing() bool { return s.probing }

// Results returns the last probe run's results.
func (s Setup) Results() []ProbeResult { return s.results }

// choiceKind is what a selectable line of the screen does.
type choiceKind int

const (
	choiceServer choiceKind = iota
	choiceReprobe
	choiceQuit
)

type choice struct {
	kind   choiceKind
	result int // index into results for choiceServer
}

// choices lists the selectable lines: usable servers (none while a probe
// is in flight: the old results are not shown), then "look again" and
// "quit".
func (s Setup) choices() []choice {
	var cs []choice
	for i, r := range s.results {
		if s.probing {
			break
		}
		if r.Status == ProbeFound && len(r.Models) > 0 {
			cs = append(cs, choice{kind: choiceServer, result: i})
		}
	}
	return append(cs, choice{kind: choiceReprobe}, choice{kind: choiceQuit})
}

// modelFor returns the model that choosing result i uses.
func (s Setup) modelFor(i int) string {
	if s.models[i] != "" {
		return s.models[i]
	}
	return s.results[i].Models[0]
}

// Update handles probe results, keys and the mouse wheel. Its action is
// a SetupResult when the user chose a server or asked to quit.
func (s *Setup) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	var res SetupResult
	var cmd tea.Cmd
	*s, res, cmd = s.update(msg)
	if res.Action == SetupNone {
		return cmd, nil
	}
	return cmd, res
}

// Draw draws the screen, which fills its area.
func (s *Setup) Draw() (box string, x, y int) {
	return cells.Block(strings.Split(s.View(), "\n"), s.width, s.height), 0, 0
}

// Hints are none: the screen draws its own keys.
func (s *Setup) Hints() []uictx.Hint { return nil }

// Binds reports that the screen takes every key: the chat is not there
// yet for an app key to act in, and the quit keys are the screen's own
// quit.
func (s *Setup) Binds(tea.KeyPressMsg) bool { return true }

// update handles a message and says what the holder should do.
func (s Setup) update(msg tea.Msg) (Setup, SetupResult, tea.Cmd) {
	if m, ok := msg.(ProbedMsg); ok {
		if m.Gen == s.gen {
			s.probing, s.probed = false, true
			s.results = m.Results
			s.models = make([]string, len(m.Results))
			s.cursor = 0
		}
		return s, SetupResult{}, nil
	}
	if s.picking {
		// The quit keys work here too; q types into the picker's filter.
		if k, ok := msg.(tea.KeyPressMsg); ok && s.quitKey(k) {
			return s, SetupResult{Action: SetupQuit}, nil
		}
		return s.updatePicker(msg), SetupResult{}, nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.handleKey(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			s.scroll -= 3
		case tea.MouseWheelDown:
			s.scroll += 3
		}
		s.clampScroll()
	}
	return s, SetupResult{}, nil
}

func (s Setup) updatePicker(msg tea.Msg) Setup {
	var res PickerResult
	s.picker, res = s.picker.update(msg)
	switch res.Action {
	case PickerChoose:
		// Copy before writing: Setup is a value and earlier copies share
		// the slice.
		s.models = append([]string(nil), s.models...)
		s.models[s.pickFor] = res.Item.Value
		s.picking = false
	case PickerCancel:
		s.picking = false
	}
	return s
}

func (s Setup) handleKey(msg tea.KeyPressMsg) (Setup, SetupResult, tea.Cmd) {
	lk := listKeysFor(s.ctx, false)
	cs := s.choices()
	s.cursor = min(s.cursor, len(cs)-1)
	cur := cs[s.cursor]
	ks := msg.Keystroke()
	if ks == "q" || s.quitKey(msg) {
		return s, SetupResult{Action: SetupQuit}, nil
	}
	if s.reading {
		s.readKey(msg)
		return s, SetupResult{}, nil
	}
	switch {
	case lk.up(msg) || ks == "k" || ks == "shift+tab":
		s.cursor = (s.cursor - 1 + len(cs)) % len(cs)
	case lk.down(msg) || ks == "j" || ks == "tab":
		s.cursor = (s.cursor + 1) % len(cs)
	case lk.first(msg):
		s.cursor = 0
	case lk.last(msg):
		s.cursor = len(cs) - 1
	case lk.pageUp(msg):
		s.scroll -= max(s.explainRows()-1, 1)
		s.clampScroll()
	case lk.pageDown(msg) || ks == "space":
		l := s.layout()
		if len(l.explainLines) > l.explainRows {
			s.reading = true
		}
		s.clampScroll()
	case ks == "r":
		return s.reprobe()
	case lk.choose(msg) || ks == "s":
		switch cur.kind {
		case choiceServer:
			r := s.results[cur.result]
			return s, SetupResult{
				Action: SetupUse, Server: r.Name, BaseURL: r.BaseURL,
				Model: s.modelFor(cur.result), Save: ks == "s",
			}, nil
		case choiceReprobe:
			if ks != "s" {
				return s.reprobe()
			}
		case choiceQuit:
			if ks != "s" {
				return s, SetupResult{Action: SetupQuit}, nil
			}
		}
	case ks == "m" || ks == "right":
		if cur.kind == choiceServer && len(s.results[cur.result].Models) > 1 {
			s.openPicker(cur.result)
		}
	}
	return s, SetupResult{}, nil
}

// quitKey reports the key map's quit and interrupt keys (ctrl+q, ctrl+c):
// on this screen there is nothing to interrupt, so both quit.
func (s Setup) quitKey(msg tea.KeyPressMsg) bool {
	lk := listKeysFor(s.ctx, false)
	return lk.matches(msg, s.ctx.Keys.Quit) || lk.matches(msg, s.ctx.Keys.Interrupt)
}

// readKey handles a key in reading mode: scroll keys scroll the
// explanation, anything else goes back to the server list.
func (s *Setup) readKey(msg tea.KeyPressMsg) {
	lk := listKeysFor(s.ctx, false)
	ks := msg.Keystroke()
	page := max(s.explainRows()-1, 1)
	switch {
	case lk.up(msg) || ks == "k":
		s.scroll--
	case lk.down(msg) || ks == "j":
		s.scroll++
	case lk.pageUp(msg) || ks == "b":
		s.scroll -= page
	case lk.pageDown(msg) || ks == "space":
		s.scroll += page
	case lk.first(msg):
		s.scroll = 0
	case lk.last(msg):
		s.scroll = len(s.layout().explainLines)
	default:
		s.reading = false
	}
	s.clampScroll()
}

// reprobe starts a new probe run unless one is in flight.
func (s Setup) reprobe() (Setup, SetupResult, tea.Cmd) {
	if s.probing {
		return s, SetupResult{}, nil
	}
	s, cmd := s.start()
	return s, SetupResult{}, cmd
}

// openPicker opens the model picker over the models result i lists.
func (s *Setup) openPicker(i int) {
	r := s.results[i]
	chosen := s.modelFor(i)
	items := make([]PickerItem, len(r.Models))
	for k, m := range r.Models {
		items[k] = PickerItem{Value: m, Current: m == chosen}
	}
	s.picker = NewPicker(s.ctx, items, PickerOptions{Title: "Models on " + r.Name})
	s.picker.SetSize(s.width, s.height)
	s.picking, s.pickFor = true, i
}
