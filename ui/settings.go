package ui

import (
	"parley/api"
	"parley/config"
	"parley/themes"
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

// configSystemPrompt is the system prompt a new conversation starts with.
func (m *Model) configSystemPrompt() string {
	if m.opts.Config == nil {
		return ""
	}
	return m.opts.Config.SystemPrompt
}

func (m *Model) maxHistory() int {
	if m.opts.Config == nil {
		return 0
	}
	return m.opts.Config.MaxHistoryMessages
}

func (m *Model) defaultModel() string {
	if m.opts.Config == nil {
		return ""
	}
	return m.opts.Config.DefaultModel
}
