package ui

import (
	"context"
	"strings"

	"parley/api"
	"parley/config"
	"parley/internal/desktop"
	"parley/internal/homepath"
	"parley/media"
	"parley/themes"
	"parley/ui/cells"
)

// settings is what the UI takes from Options and the config, in one place.
type settings struct {
	keys       map[string][]string
	catalog    *api.Catalog
	model      string
	theme      string
	mouse      bool
	needsSetup bool
	warnings   []string
}

func settingsFrom(opts Options) settings {
	st := settings{model: opts.Model, theme: opts.Theme, mouse: opts.Mouse, catalog: opts.Catalog, needsSetup: opts.NeedsSetup}
	if cfg := opts.Config; cfg != nil {
		st.keys = cfg.Keys
		if st.theme == "" {
			st.theme = cfg.Theme
		}
		if st.model == "" {
			st.model = cfg.DefaultModel
		}
		if st.model == "" && opts.Getenv != nil && !opts.Demo {
			st.model = readLastModel(opts.Getenv)
		}
		if st.catalog == nil {
			st.catalog = cfg.Catalog()
		}
		st.needsSetup = st.needsSetup || config.NothingConfigured(cfg, opts.Getenv)
		st.warnings = cfg.Warnings
	}
	if opts.Warnings != nil {
		st.warnings = opts.Warnings
	}
	if st.catalog == nil {
		st.catalog = api.NewCatalog(nil)
	}
	if st.theme == "" {
		st.theme = themes.Auto
	}
	return st
}

// The settings the chat reads from the config; every one has a default
// when there is no config (tests, the demo).

// systemPrompt is the system prompt a new conversation starts with:
// --system, else the --role's, else system_prompt.
func (o Options) systemPrompt() string {
	if o.SystemPrompt == "" && o.Role != "" && o.Config != nil {
		if r, ok := o.Config.Role(o.Role); ok && strings.TrimSpace(r.SystemPrompt) != "" {
			return r.SystemPrompt
		}
	}
	return o.ownSystemPrompt()
}

// ownSystemPrompt is the system prompt without a role: --system, else
// system_prompt.
func (o Options) ownSystemPrompt() string {
	if o.SystemPrompt != "" || o.Config == nil {
		return o.SystemPrompt
	}
	return o.Config.SystemPrompt
}

func (o Options) maxHistory() int {
	if o.Config == nil {
		return 0
	}
	return o.Config.MaxHistoryMessages
}

func (o Options) defaultModel() string {
	if o.Config == nil {
		return ""
	}
	return o.Config.DefaultModel
}

// attachLimits are the configured attachment limits (attach_max_side,
// attach_max_bytes), with the screen's decode budget: the one its previews
// draw on, so the images it decodes at once share one budget.
func attachLimits(o Options, pics *pictures) api.AttachLimits {
	var lim api.AttachLimits
	if o.Config != nil {
		lim = o.Config.AttachLimits()
	}
	lim.Budget = pics.cache.Budget()
	return lim
}

// roomOf is what bounds the text blocks a message may carry.
func roomOf(o Options, pics *pictures) blockRoom {
	return blockRoom{maxCount: o.maxAttachments(), lim: attachLimits(o, pics)}
}

// maxAttachments is attach_max_count.
func (o Options) maxAttachments() int { return o.Config.MaxAttachments() }

// imageDir is where the chat saves images (image_dir).
func (o Options) imageDir() string {
	if o.Config != nil {
		return o.Config.ImageDir()
	}
	return media.DefaultImageDir(o.Getenv, o.Getenv("HOME"))
}

// saveDir is the folder the image pane's save prompt proposes: image_dir,
// but in the demo, whose image_dir is a temporary folder it tells the
// user not to keep things in, the usual pictures folder.
func (o Options) saveDir() string {
	if o.Demo {
		return media.DefaultImageDir(o.Getenv, o.Getenv("HOME"))
	}
	return o.imageDir()
}

// madeNotice says where the images just made were saved: the demo's
// folder is a temporary one (the demo keeps nothing), and says so.
func madeNotice(text string, o Options) string {
	text += " in " + cells.OneLine(homepath.Short(o.imageDir(), o.Getenv("HOME")))
	if o.Demo {
		text += ", a temporary folder: the demo keeps nothing, so copy the ones you want to keep"
	}
	return text
}

// configPath is where a new config file goes: Options.ConfigPath, else the
// file the config package reads (config.DefaultPath), or "" when no
// directory for it is known.
func (o Options) configPath() string {
	if o.ConfigPath != "" {
		return o.ConfigPath
	}
	env := o.configEnv()
	if env.Getenv("PARLEY_CONFIG") == "" && config.Dir(env) == "" {
		return ""
	}
	return config.DefaultPath(env)
}

// configEnv is the environment the config package resolves paths in.
func (o Options) configEnv() config.Env {
	return config.Env{Getenv: o.Getenv, HomeDir: o.Getenv("HOME")}
}

// clipboardWrite writes text to the system clipboard through the
// desktop's bounded tool runs (a test's fake when set); ctx ends a copy
// still running when the chat ends.
func (o Options) clipboardWrite(sys desktop.System, ctx context.Context) func(string) error {
	if o.Clipboard != nil {
		return o.Clipboard
	}
	return func(s string) error { return sys.CopyText(ctx, s) }
}
