// Package ui is parley's full-screen chat: the root Bubble Tea model that
// owns the conversation, the transcript, the composer, the status bar, the
// key hint and the overlays, and ui.Run, which runs it.
//
// The data path of one turn follows DESIGN.md: the composer's text goes
// through the conversation (the one place every change is made) and the
// transcript is told right after; the reply streams into a pump owned by
// a cancellable context, and the frame tick takes what it gathered, ten
// times a second, and re-renders only what changed; View joins cached
// strings.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/api"
	"parley/config"
	"parley/conversation"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/slash"
	"parley/ui/transcript"
	"parley/ui/uictx"
)

// Options is what main wires into the chat screen.
type Options struct {
	// Config is the loaded configuration (nil: defaults). The UI reads
	// system_prompt, max_history_messages, [keys], theme, mouse, the models
	// and their capabilities, and whether a gateway is configured at all.
	Config *config.Config
	// ConfigPath is where the setup screen's Save writes a new config file
	// ("" means the file the config package reads from the environment).
	// It is never overwritten when it exists.
	ConfigPath string
	// Model is the model of the first turn (--model, else default_model).
	Model string
	// Theme is the theme name (--theme, else config theme; "" means "auto").
	Theme string
	// Version is parley's version (User-Agent of clients the UI builds).
	Version string
	// NewClient returns a client for a model; its error is shown to the
	// user as is (one sentence).
	NewClient func(model string) (*api.Client, error)
	// Catalog answers capability questions; nil builds one from Config.
	Catalog *api.Catalog
	// Getenv reads NO_COLOR, VISUAL/EDITOR, the config locations
	// (PARLEY_CONFIG, XDG_CONFIG_HOME, HOME) and, for the first-run check,
	// OPENAI_BASE_URL and OPENAI_API_KEY; nil means no environment at all.
	Getenv func(string) string
	// NeedsSetup opens the first-run screen (no key and no base URL
	// configured). Run computes it from Config when left false and
	// Config says nothing is configured.
	NeedsSetup bool
	// Mouse turns mouse wheel scrolling on at start (config mouse = true).
	Mouse bool
	// Listener hears every conversation change (the sessions store). It
	// must only enqueue: it is called from Update.
	Listener conversation.Listener
	// Demo marks the built-in demo gateway in the status bar.
	Demo bool

	// Input and Output replace the terminal (tests); nil means stdin/stdout.
	Input  io.Reader
	Output io.Writer
	// Clipboard replaces the system clipboard writer (tests).
	Clipboard func(string) error
	// Now replaces the clock (tests).
	Now func() time.Time
	// Profile pins the colour profile (tests); zero means detect.
	Profile colorprofile.Profile
	// Size is the initial size when there is no terminal to ask (tests).
	Width, Height int

	// probe replaces the loopback servers the setup screen probes (tests).
	probe []overlay.Candidate
}

// Run runs the chat screen until the user quits. The terminal is restored
// on every exit path: Bubble Tea restores it when Run returns, and a panic
// in Update or View is caught by Bubble Tea and returned as an error.
func Run(ctx context.Context, opts Options) (err error) {
	stopProfile, err := startProfile(opts.Getenv)
	if err != nil {
		return err
	}
	defer func() {
		if perr := stopProfile(); perr != nil {
			err = errors.Join(err, perr)
		}
	}()
	m := New(ctx, opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(rendererFPS)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Profile != 0 {
		popts = append(popts, tea.WithColorProfile(opts.Profile))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	if m.ctx.NoColor {
		// No colour, but bold, reverse and underline still mark focus and
		// state (the themes' NO_COLOR styles rely on them).
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, popts...)
	_, err = p.Run()
	// The program has stopped: nothing else touches the model now.
	m.shutdown()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, tea.ErrInterrupted):
		// SIGINT from outside (ctrl+c inside the app is a key).
		return fmt.Errorf("%w: %w", context.Canceled, err)
	}
	return fmt.Errorf("the chat screen stopped: %w", err)
}

// shutdown ends a reply still in flight (killed, interrupted), keeping its
// text as interrupted so the recorder stores it.
func (m *Model) shutdown() {
	m.interruptStream()
}

// New builds the root model at a default size; a tea.WindowSizeMsg sets the
// real one. Tests drive it directly with Update and View.
func New(ctx context.Context, opts Options) *Model {
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if ctx == nil {
		ctx = context.Background()
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	st := settingsFrom(opts)

	km, problems := keys.Load(st.keys)
	km = km.ForTerminal(false)

	m := &Model{
		ctx:       &uictx.Context{Width: 80, Height: 24, Keys: km},
		opts:      opts,
		now:       now,
		base:      ctx,
		catalog:   st.catalog,
		clients:   newClientPool(opts.NewClient),
		model:     st.model,
		themeName: st.theme,
		mouse:     st.mouse,
		darkBG:    true,
		started:   now(),
	}
	m.ctx.NoColor = opts.Getenv("NO_COLOR") != ""
	problems = append(problems, st.warnings...)
	problems = append(problems, m.loadThemes()...)
	m.setBanner(problems)
	m.applyTheme(m.resolvedTheme())
	m.tr = transcript.New(m.ctx)
	m.conv = conversation.New(m.conversationOptions())
	m.commands = newCommands()
	m.menu = slash.NewList(m.ctx, m.commands)
	m.comp = newComposer()
	m.comp.applyKeys(km)
	m.comp.restyle(m.ctx)
	m.comp.setPlaceholder(m.model, firstKey(m.keyMap().ModelPicker, "ctrl+o"))
	if st.needsSetup {
		m.layers = layerStack{&setupLayer{s: overlay.NewSetup(m.ctx, overlay.SetupOptions{ConfigPath: m.configPath(), Context: ctx, Candidates: opts.probe})}}
		m.comp.ta.Blur()
	}
	w, h := 80, 24
	if opts.Width > 0 && opts.Height > 0 {
		w, h = opts.Width, opts.Height
	}
	m.resize(w, h)
	m.relayout()
	m.refreshChrome()
	m.composeFrame()
	return m
}
