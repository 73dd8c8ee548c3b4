package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/internal/desktop"
	"parley/internal/homepath"
	"parley/internal/hugeheap"
	"parley/mcp"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/preview"
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
	// ModelGiven says Model came from --model: a reopened session keeps
	// it instead of its own model.
	ModelGiven bool
	// SystemPrompt is --system: the system prompt of this run's
	// conversations, reopened ones included; "" keeps a reopened
	// session's own and gives new ones system_prompt.
	SystemPrompt string
	// Role is --role: the [[roles]] entry new conversations start with
	// (its system prompt unless --system gives one; its parameters). ""
	// starts them with none; a reopened session keeps its own.
	Role string
	// Theme is the theme name (--theme, else config theme; "" means "auto").
	Theme string
	// Version is parley's version (User-Agent of clients the UI builds).
	Version string
	// NewClient returns a client for a model; its error is shown to the
	// user as is (one sentence).
	NewClient func(model string) (*api.Client, error)
	// ServerClient makes the client factory for a server the first-run
	// screen found; nil makes one with api's defaults (tests).
	ServerClient func(baseURL string) func(model string) (*api.Client, error)
	// Catalog answers capability questions; nil builds one from Config.
	Catalog *api.Catalog
	// Getenv reads NO_COLOR, VISUAL/EDITOR, the config locations
	// (PARLEY_CONFIG, XDG_CONFIG_HOME, HOME) and, for the first-run check,
	// OPENAI_BASE_URL and OPENAI_API_KEY; nil means no environment at all.
	// WorkDir is the working directory, for relative paths (exports, the
	// image pane's saves, completion) and the picker's last resort; ""
	// has New ask the process once, never in Update.
	WorkDir string
	Getenv  func(string) string
	// NeedsSetup opens the first-run screen (no key and no base URL
	// configured). Run computes it from Config when left false and
	// Config says nothing is configured.
	NeedsSetup bool
	// Mouse turns mouse wheel scrolling on at start (config mouse = true).
	Mouse bool
	// MCP are the configured MCP servers, started (in the background) by
	// the caller, whose tools the model may call; nil: no tools. The
	// caller closes it after the chat.
	MCP *mcp.Manager
	// Listener hears every conversation change (the sessions store). It
	// must only enqueue: it is called from Update.
	Listener conversation.Listener
	// Demo marks the built-in demo gateway in the status bar; a demo
	// remembers nothing (no history, no last model).
	Demo bool
	// History is the sessions store and the session to reopen.
	History History
	// Warnings are the start-up problems the command line found (a
	// provider without its key, OPENAI_BASE_URL ignored, config file
	// warnings), shown in the banner. nil takes the config's warnings.
	Warnings []string
	// JobControl connects ctrl+z, SIGTSTP and SIGCONT to the process's
	// signal owner; nil means no stopping (ctrl+z is an ordinary key).
	JobControl *JobControl
	// VerboseLog is the file the gateway trace goes to (--verbose); ""
	// means no trace. The chat says where it goes.
	VerboseLog string
	// NoImages shows no image previews (--no-images).
	NoImages bool
	// KnownModels are the gateway's model ids as last listed (a cache), so
	// a refusal names models the user can use before the picker asks.
	KnownModels []string
	// KnownSaid is what that list said the models take and make.
	KnownSaid []api.ModelInfo
	// Engine is the chat engine the screen presents; nil has New build
	// one from these options (NewEngine). A caller that gives one keeps
	// it to read what the chat holds (tests).
	Engine *chat.Engine

	// Input and Output replace the terminal (tests); nil means stdin/stdout.
	Input  io.Reader
	Output io.Writer
	// Clipboard replaces the system clipboard writer (tests).
	Clipboard func(string) error
	// Desktop replaces the system's clipboard reader and file opener
	// (tests); nil means the real one.
	Desktop *desktop.System
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
//
// Signals belong to main (package internal/signals): Bubble Tea's handler
// is off, since two receivers of one SIGTERM could wait on each other. A
// termination signal cancels ctx, which ends the chat as ctrl+q does (and
// Run returns ctx's error); SIGTSTP and SIGCONT arrive through
// opts.JobControl.
func Run(ctx context.Context, opts Options) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.WorkDir == "" {
		opts.WorkDir, _ = os.Getwd()
	}
	if err := ctx.Err(); err != nil {
		// A signal during start-up: never enter the alternate screen.
		return err
	}
	stopProfile, err := startProfile(opts.Getenv)
	if err != nil {
		return err
	}
	defer func() {
		if perr := stopProfile(); perr != nil {
			err = errors.Join(err, perr)
		}
	}()
	m := New(ctx, sizedForTerminal(opts))
	// New grew the heap; the first frame grows it more (internal/hugeheap).
	hugeheap.Advise()
	popts := programOptions(opts, m.ctx.NoColor)
	var p *tea.Program
	if jc := opts.JobControl; jc != nil {
		// The filter runs only once Run has started, after p is set.
		popts = append(popts, tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg { return jc.filter(p, msg) }))
	}
	p = tea.NewProgram(m, popts...)
	// Send (in Quit) returns once the program has ended, so this goroutine
	// never outlives Run.
	stopQuit := context.AfterFunc(ctx, p.Quit)
	stopForwarding := func() {}
	if opts.JobControl != nil {
		stopForwarding = opts.JobControl.forward(p)
	}
	_, err = p.Run()
	stopQuit()
	stopForwarding()
	if err == nil && ctx.Err() != nil {
		// Before released: after it, a forced exit may end the process.
		resetCursorShape(opts.Output)
	}
	opts.JobControl.released()
	// The program has stopped: nothing else touches the model now.
	// A reply still in flight (killed, interrupted) keeps its text as
	// interrupted, so the recorder stores it.
	m.interruptStream()
	if cerr := m.hist.close(m.eng.Conv().ID(), &m.comp, os.Stderr); cerr != nil {
		defer func() { err = errors.Join(err, cerr) }()
	}
	switch {
	case err == nil && ctx.Err() != nil:
		return ctx.Err()
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrInterrupted):
		// tea.Interrupt from inside (ctrl+c inside the app is a key).
		return fmt.Errorf("%w: %w", context.Canceled, err)
	}
	return fmt.Errorf("the chat screen stopped: %w", err)
}

// programOptions are Bubble Tea's options for the chat: no signal handler
// (main owns signals), the frame rate, the streams, size and colour
// profile a test or the terminal gives. Not tea.WithContext: a program
// killed by its context closes the terminal reader while the read loop
// still uses it (a data race in Bubble Tea's kill path); Run ends the
// program through Quit instead.
func programOptions(opts Options, noColor bool) []tea.ProgramOption {
	popts := []tea.ProgramOption{tea.WithoutSignalHandler(), tea.WithFPS(rendererFPS)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Profile != 0 {
		popts = append(popts, tea.WithColorProfile(opts.Profile))
	} else if !noColor {
		popts = append(popts, tea.WithColorProfile(startColorProfile(opts.Output, os.Environ())))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	if noColor {
		// No colour, but bold, reverse and underline still mark focus and
		// state (the themes' NO_COLOR styles rely on them).
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return popts
}

// resetCursorShape gives the terminal its own cursor shape back. Bubble Tea
// resets the shape the chat set (a blinking block) only when the last frame
// has no cursor, which is not the case when a signal ends the chat.
func resetCursorShape(out io.Writer) {
	if out == nil {
		out = os.Stdout
	}
	_, _ = io.WriteString(out, ansi.SetCursorStyle(0))
}

// imagesMode is how pictures are drawn: the config's images setting, or
// off with --no-images.
func imagesMode(opts Options) string {
	switch {
	case opts.NoImages:
		return "off"
	case opts.Config != nil:
		return opts.Config.Images
	}
	return ""
}

// desktopOf is the desktop parley reads and writes: the system's (or the
// one a test gives), with the config's screenshot command.
func desktopOf(opts Options) desktop.System {
	d := desktop.FromOS()
	if opts.Desktop != nil {
		d = *opts.Desktop
	}
	if opts.Config != nil && opts.Config.ScreenshotCmd != "" {
		d.ScreenshotCmd = opts.Config.ScreenshotCmd
	}
	return d
}

// engineOptions are the chat engine's options from the run's: its
// clients, clock, system prompt and role, its model and what is known of
// models, its history limit and parameters.
func engineOptions(opts Options, st settings, now func() time.Time) chat.Options {
	return chat.Options{
		Clients: chat.NewClients(opts.NewClient), Now: now,
		SystemPrompt: opts.systemPrompt(), Role: opts.Role, SystemOverride: opts.SystemPrompt,
		MaxHistory: opts.maxHistory(),
		ParamLayers: func(model string, conv *conversation.Conversation) []api.ParamLayer {
			return paramLayers(opts.Config, model, conv)
		},
		Model:    st.model,
		Tools:    toolOptions(opts),
		ImageDir: opts.imageDir(),
		// Refusals name the config file the way people write it (~/…).
		Catalog: st.catalog.WithListed(opts.KnownModels).WithGateway(opts.KnownSaid).WithConfigPath(homepath.Short(st.catalog.ConfigPath(), opts.Getenv("HOME"))),
	}
}

// withDefaults fills what the options may leave out: no environment, the
// background context, the system clock.
func withDefaults(ctx context.Context, opts Options) (context.Context, Options, func() time.Time) {
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
	return ctx, opts, now
}

// NewEngine builds the chat engine for the screen from the run's options:
// its clients, clock, system prompt and role, its model and what is known
// of models, its history limit, parameters and tools.
func NewEngine(ctx context.Context, opts Options) *chat.Engine {
	ctx, opts, now := withDefaults(ctx, opts)
	return chat.New(ctx, engineOptions(opts, settingsFrom(opts), now))
}

// New builds the root model at a default size; a tea.WindowSizeMsg sets the
// real one. Tests drive it directly with Update and View.
func New(ctx context.Context, opts Options) *Model {
	ctx, opts, now := withDefaults(ctx, opts)
	st := settingsFrom(opts)
	eng := opts.Engine
	if eng == nil {
		eng = chat.New(ctx, engineOptions(opts, st, now))
	}

	km, problems := keys.Load(st.keys)
	km = km.ForTerminal(false)

	m := &Model{
		ctx:  &uictx.Context{Width: 80, Height: 24, Keys: km},
		opts: opts,
		now:  now,
		base: ctx,
		eng:  eng,
		term: terminal{themeName: st.theme, mouse: st.mouse, darkBG: true, started: now(), profile: opts.Profile},
	}
	m.pics = newPictures(imagesMode(opts), opts.Getenv)
	m.work.renew(ctx, &m.pics)
	m.desktop = desktopOf(opts)
	m.ctx.NoColor = opts.Getenv("NO_COLOR") != ""
	problems = append(problems, st.warnings...)
	problems = append(problems, m.term.loadThemes(opts.configEnv(), &km)...)
	m.hist.History = opts.History
	if m.hist.Store != nil {
		// The recorder outlives the program's context on purpose: what is
		// queued when a signal ends the chat is still written (Run closes
		// it after the program stops).
		m.hist.rec = m.hist.Store.NewRecorder(context.WithoutCancel(ctx))
	} else if off := m.hist.Off; off != "" && off != "demo" && off != "--no-save" && off != "history = false" {
		problems = append(problems, "history is off for this run: "+off)
	}
	m.notes.now = now
	m.notes.setBanner(problems, now())
	if opts.VerboseLog != "" {
		m.notes.add(notice{text: "tracing gateway requests (--verbose) to " + cells.OneLine(opts.VerboseLog), kind: toastInfo, at: now()})
	}
	m.term.apply(m.ctx)
	m.tr = transcript.New(m.ctx)
	m.tr.SetPictures(m.pics.mode != preview.Off)
	if opts.Config != nil && opts.Config.ReadingWidth > 0 {
		m.tr.SetMaxProseWidth(opts.Config.ReadingWidth)
	}
	m.eng.Listen(transcriptListener{m.tr})
	if opts.Listener != nil {
		m.eng.Listen(opts.Listener)
	}
	if m.hist.rec != nil {
		m.eng.Listen(m.hist.rec)
		m.eng.SetFlush(m.hist.rec.Flush)
	}
	m.eng.Replace(m.eng.Fresh())
	m.actions = newActionTable(chatActions())
	m.menu = commandMenu{slash.NewList(m.ctx, m.actions.commands)}
	m.comp = newComposer()
	m.comp.applyKeys(km)
	if st.needsSetup {
		s := overlay.NewSetup(m.ctx, overlay.SetupOptions{ConfigPath: m.opts.configPath(), Context: ctx, Candidates: opts.probe})
		m.layers.push(layer{Component: &s, kind: "setup", full: true})
	}
	w, h := 80, 24
	if opts.Width > 0 && opts.Height > 0 {
		w, h = opts.Width, opts.Height
	}
	m.ctx.Width, m.ctx.Height = w, h
	m.relayout()
	m.comp.sync(m.ctx, m.composerLook())
	m.refreshChrome()
	m.composeFrame()
	return m
}
