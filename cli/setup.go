package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"parley/api"
	"parley/config"
	"parley/internal/homepath"
	"parley/mcp"
	"parley/termsafe"
)

// loadConfig reads the configuration (a --config flag wins over
// PARLEY_CONFIG), points it at the built-in demo with --demo, and prints
// the start-up warnings on stderr. Every configuration problem is a usage
// error: the user has to change the file.
func (a *app) loadConfig() (*config.Config, error) {
	cfg, err := config.Load(config.Env{Getenv: a.env.Getenv, HomeDir: a.env.HomeDir, Path: a.cfgPath})
	if err != nil {
		return nil, usage(err)
	}
	a.console.secrets.add(cfg.KnownKeys()...)
	if a.demo {
		if err := a.useDemo(cfg); err != nil {
			return nil, err
		}
	}
	for _, w := range a.startupWarnings(cfg) {
		a.console.warn(w)
	}
	return cfg, nil
}

// loadGatewayConfig is loadConfig for the commands that talk to a
// gateway (ask, image, models): with nothing configured at all (no config
// file, neither OPENAI_BASE_URL nor OPENAI_API_KEY) they say so and point
// at the setup screen and the demo, instead of sending a request without
// a key to the default gateway.
func (a *app) loadGatewayConfig(command string) (*config.Config, error) {
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	if config.NothingConfigured(cfg, a.env.Getenv) {
		return nil, usagef("nothing is configured yet: there is no config file (%s) and neither OPENAI_BASE_URL nor OPENAI_API_KEY is set; run parley to set up a gateway on its first screen, or try parley %s --demo", a.displayPath(cfg.Path), command)
	}
	return cfg, nil
}

// displayPath shows a path with the home directory as ~.
func (a *app) displayPath(p string) string { return homepath.Short(p, a.env.HomeDir) }

// client builds the gateway client for model's provider.
func (a *app) client(cfg *config.Config, model string) (*api.Client, error) {
	p, err := cfg.ProviderFor(model)
	if err != nil {
		return nil, usage(err)
	}
	return a.newClient(cfg, p)
}

func (a *app) providerClient(cfg *config.Config, name string) (*api.Client, error) {
	p := cfg.Provider(name)
	if p == nil {
		return nil, usagef("no provider named %q in %s", name, a.displayPath(cfg.Path))
	}
	return a.newClient(cfg, p)
}

func (a *app) newClient(cfg *config.Config, p *config.Provider) (*api.Client, error) {
	var trace io.Writer
	if a.verbose {
		trace = a.env.Stderr
	}
	c, err := a.buildClient(cfg, p, trace)
	var keyErr *config.KeyError
	switch {
	case errors.As(err, &keyErr):
		return nil, err // the key command failed: a runtime error (exit 1)
	case err != nil:
		return nil, usage(err) // a bad base URL, header or proxy in the config
	}
	for _, w := range c.Warnings() {
		a.console.warn(w)
	}
	return c, nil
}

// buildClient is the one place a gateway client is made, for ask, image,
// models and the chat alike: the provider's key, headers, proxy, the
// config's timeouts and retries, and the --verbose trace (sanitised) when
// trace is set.
func (a *app) buildClient(cfg *config.Config, p *config.Provider, trace io.Writer) (*api.Client, error) {
	cc, err := p.ClientConfig(userAgent())
	if err != nil {
		return nil, err
	}
	a.console.secrets.add(cc.APIKey)
	if trace != nil {
		cc.Verbose, cc.Sanitize = trace, termsafe.Sanitize
	}
	c, err := api.NewClient(cc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.providerSource(cfg, p), err)
	}
	return c, nil
}

// providerSource says where a provider's settings come from, so a bad base
// URL or header can be found: OPENAI_BASE_URL, or the entry in the file.
func (a *app) providerSource(cfg *config.Config, p *config.Provider) string {
	if p.Line == 0 {
		return "OPENAI_BASE_URL"
	}
	return fmt.Sprintf("%s:%d: provider %q", a.displayPath(cfg.Path), p.Line, p.Name)
}

// chatModel picks the chat model: the flag, default_model, or, when neither
// says, the first model the gateway lists (said on stderr).
func (a *app) chatModel(ctx context.Context, cfg *config.Config, flag string) (string, error) {
	if m := cmp.Or(strings.TrimSpace(flag), strings.TrimSpace(cfg.DefaultModel)); m != "" {
		return m, nil
	}
	hint := fmt.Sprintf("pass --model NAME or set default_model in %s (parley models lists the choices)", a.displayPath(cfg.Path))
	client, err := a.providerClient(cfg, cfg.Providers[0].Name)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	ids, err := client.ListModels(ctx)
	var apiErr *api.APIError
	switch {
	case errors.Is(err, context.Canceled):
		return "", err
	case errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusNotFound || apiErr.StatusCode == http.StatusMethodNotAllowed),
		err == nil && len(ids) == 0:
		return "", usagef("no model chosen, and the gateway lists none; %s", hint)
	case err != nil:
		// The same failure would meet the chat request: say it now.
		return "", fmt.Errorf("no model chosen, and asking the gateway for its models failed: %w", err)
	}
	m := pickChatModel(ids, cfg.Catalog())
	a.console.say(fmt.Sprintf("no model chosen, so using %q from the gateway's list; %s", m, hint))
	return m, nil
}

// pickChatModel returns the first model in the gateway's order that can
// chat, as the setup screen offers them (image-only models are passed
// over); the gateway's first model when it lists only those.
func pickChatModel(ids []string, catalog *api.Catalog) string {
	for _, id := range ids {
		if !catalog.Lookup(id).Caps.ImageOnly() {
			return id
		}
	}
	return ids[0]
}

// attachAll turns --attach values into attachments, saying on stderr when
// one was scaled down.
func (a *app) attachAll(refs []string, lim api.AttachLimits) ([]api.Attachment, error) {
	var out []api.Attachment
	for _, ref := range refs {
		at, err := api.Attach(ref, lim)
		if err != nil {
			return nil, usage(err)
		}
		if at.Resized {
			a.console.say("attached " + at.Describe())
		}
		out = append(out, at)
	}
	return out, nil
}

// TUIRequest is what the full-screen chat needs from the command line.
type TUIRequest struct {
	Config *config.Config
	// Model is the start model ("" when neither --model nor default_model
	// names one: the chat then asks the gateway or the user).
	Model string
	// ModelGiven says Model came from --model: a reopened session then
	// keeps it instead of its own.
	ModelGiven bool
	// System is --system: the system prompt of this run's conversations,
	// a reopened session's included ("" keeps theirs, and system_prompt
	// for new ones).
	System string
	// Theme is --theme or the config's theme ("" means auto).
	Theme string
	// Mouse turns on mouse-wheel scrolling.
	Mouse   bool
	Version string
	// NewClient returns a gateway client for a model's provider.
	NewClient func(model string) (*api.Client, error)
	// ServerClient returns the client factory for a server the first-run
	// screen found (the config's timeouts and retries, no key).
	ServerClient func(baseURL string) func(model string) (*api.Client, error)
	// Demo is set by --demo: Config points at the built-in demo gateway
	// (its provider and models replace the user's). The chat says "demo"
	// in its status bar and keeps the demo out of the user's history: it
	// records no session and remembers no last-used model.
	Demo bool
	// Warnings are the start-up warnings for the chat's banner, one
	// sentence each, masked and made inert: the config file's (so
	// Config.Warnings need not be shown again), a provider whose key is
	// missing, OPENAI_BASE_URL ignored because the file defines providers.
	// parley ask, image and models print the same ones on stderr.
	Warnings []string
	// History is the sessions store and what to reopen.
	History TUIHistory
	// NoImages turns image previews off for this run (--no-images).
	NoImages bool
	// KnownModels are the gateways' model ids from the last `parley models`
	// (the cache), so refusals name models the user can use.
	KnownModels []string
	// KnownSaid is what those lists said the models take and make.
	KnownSaid []api.ModelInfo
	// VerboseLog is the file the clients' --verbose trace goes to ("" when
	// --verbose is off); stderr is the chat's screen.
	VerboseLog string
	// Role is --role: the [[roles]] entry new conversations start with
	// (Config.Role has it; checked to exist). "" keeps a reopened
	// session's role, and none for new ones.
	Role string
	// MCP are the config's MCP servers, already starting in the
	// background (nil without [[mcp_servers]]); closed after the chat.
	MCP *mcp.Manager
}

type tuiFlags struct {
	model    string
	role     string
	system   string
	theme    string
	mouse    bool
	noImages bool
	history  historyFlags
}

func (a *app) runTUI(ctx context.Context, f tuiFlags) error {
	if a.env.PrepareTUI != nil && a.env.RunTUI != nil && a.env.StdoutIsTerminal && a.env.StdinIsTerminal {
		go a.env.PrepareTUI()
	}
	cfg, removeDir, err := a.tuiConfig(f)
	if err != nil {
		return err
	}
	defer removeDir()
	role := strings.TrimSpace(f.role)
	roleModel, err := roleModel(cfg, role)
	if err != nil {
		return err
	}
	hist, err := a.tuiHistory(ctx, cfg, f.history)
	if err != nil {
		return err
	}
	defer a.closeTUIHistory(hist)
	var trace io.Writer
	logPath := ""
	if a.verbose {
		log, err := a.openVerboseLog()
		if err != nil {
			return err
		}
		defer log.Close()
		trace, logPath = log, log.path
		// Said before the chat takes the screen, so it stays in the
		// terminal's scrollback after the chat ends.
		a.console.say("tracing gateway requests (--verbose) to " + a.displayPath(logPath))
	}
	req := a.tuiRequest(cfg, f, trace)
	req.History, req.VerboseLog = hist, logPath
	req.Model = cmp.Or(strings.TrimSpace(f.model), roleModel, strings.TrimSpace(cfg.DefaultModel))
	req.Role = role
	if len(cfg.MCPServers) > 0 && !a.demo {
		// The servers start now, in the background: the chat's first
		// frame waits for none of them.
		req.MCP = a.startServers(ctx, cfg)
		defer req.MCP.Close()
	}
	return a.env.RunTUI(ctx, req)
}

// tuiConfig checks that the chat can run here and loads the config, its
// warnings kept for the chat's banner. With --demo, /image saves into a
// temporary folder (as parley image --demo: the demo keeps nothing), and
// removeDir removes it when the chat ends if it is still empty; images made
// stay there to be copied.
func (a *app) tuiConfig(f tuiFlags) (cfg *config.Config, removeDir func(), err error) {
	if a.env.RunTUI == nil {
		return nil, nil, errors.New("the full-screen chat is not available in this build; use parley ask")
	}
	if !a.env.StdoutIsTerminal || !a.env.StdinIsTerminal {
		return nil, nil, usagef("the chat needs a terminal on stdin and stdout; for scripts use parley ask")
	}
	if err := f.history.check(); err != nil {
		return nil, nil, err
	}
	a.console.collecting = true
	cfg, err = a.loadConfig()
	a.console.collecting = false
	if err != nil {
		return nil, nil, err
	}
	if !a.demo {
		return cfg, func() {}, nil
	}
	dir, err := a.demoImageDir("set TMPDIR to a folder you can write to")
	if err != nil {
		return nil, nil, err
	}
	cfg.UseImageDir(dir)
	return cfg, func() { os.Remove(dir) }, nil
}

// roleModel is the model of the role --role names ("" for none, or a role
// without a model of its own).
func roleModel(cfg *config.Config, role string) (string, error) {
	if role == "" {
		return "", nil
	}
	r, err := cfg.FindRole(role)
	if err != nil {
		return "", usage(fmt.Errorf("--role: %w", err))
	}
	return strings.TrimSpace(r.Model), nil
}

// tuiRequest is what the chat starts from, but for its history, model,
// role and trace log: the config and flags, and clients that trace to
// trace (nil: no tracing).
func (a *app) tuiRequest(cfg *config.Config, f tuiFlags, trace io.Writer) TUIRequest {
	req := TUIRequest{
		Config:     cfg,
		ModelGiven: strings.TrimSpace(f.model) != "",
		System:     f.system,
		Theme:      cmp.Or(strings.TrimSpace(f.theme), strings.TrimSpace(cfg.Theme)),
		Mouse:      f.mouse || cfg.Mouse,
		Version:    Version(),
		NewClient: func(model string) (*api.Client, error) {
			p, err := cfg.ProviderFor(model)
			if err != nil {
				return nil, err
			}
			return a.buildClient(cfg, p, trace)
		},
		ServerClient: func(baseURL string) func(model string) (*api.Client, error) {
			p := cfg.ServerProvider(baseURL)
			return func(string) (*api.Client, error) { return a.buildClient(cfg, p, trace) }
		},
		Demo:     a.demo,
		Warnings: a.console.collected,
		NoImages: f.noImages,
	}
	req.KnownModels, req.KnownSaid = a.knownModels(cfg)
	return req
}
