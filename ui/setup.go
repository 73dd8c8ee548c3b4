package ui

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"github.com/BurntSushi/toml"

	"parley/api"
	"parley/config"
	"parley/termsafe"
	"parley/ui/overlay"
)

// useServer applies the setup screen's choice: chat against the server it
// found, with the model it listed, from now on; and save both to a new
// config file when asked.
func (m *Model) useServer(res overlay.SetupResult) tea.Cmd {
	base := res.BaseURL
	ua := "parley/" + m.opts.Version
	build := func(string) (*api.Client, error) {
		return api.NewClient(api.ClientConfig{BaseURL: base, UserAgent: ua})
	}
	if m.opts.ServerClient != nil {
		build = m.opts.ServerClient(base)
	}
	m.clients = newClientPool(build)
	if res.Model != "" {
		m.model = res.Model
		m.comp.setPlaceholder(m.model, firstKey(m.keyMap().ModelPicker, "ctrl+o"))
	}
	toastCmd := m.notify(fmt.Sprintf("chatting with %s at %s", termsafe.Sanitize(m.model), termsafe.Sanitize(base)), toastOK)
	if !res.Save {
		return toastCmd
	}
	path := m.configPath()
	if path == "" {
		return m.notify("cannot save: no config directory is known (set XDG_CONFIG_HOME or HOME)", toastErr)
	}
	return tea.Batch(toastCmd, saveConfig(path, base, res.Model))
}

// configSavedMsg reports the first-run config file write.
type configSavedMsg struct {
	path string
	err  error
}

// saveConfig writes a minimal config file with the chosen server. It never
// overwrites: an existing file is left alone and reported.
func saveConfig(path, baseURL, model string) tea.Cmd {
	return func() tea.Msg {
		var b bytes.Buffer
		b.WriteString("# parley configuration, written by the first-run setup.\n# See \"parley help config\" for every setting.\n\n")
		type provider struct {
			Name    string `toml:"name"`
			BaseURL string `toml:"base_url"`
		}
		err := toml.NewEncoder(&b).Encode(struct {
			DefaultModel string     `toml:"default_model,omitempty"`
			Providers    []provider `toml:"providers"`
		}{model, []provider{{"local", baseURL}}})
		if err != nil {
			return configSavedMsg{path: path, err: err}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return configSavedMsg{path: path, err: err}
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return configSavedMsg{path: path, err: err}
		}
		_, werr := f.Write(b.Bytes())
		if err := errors.Join(werr, f.Close()); err != nil {
			return configSavedMsg{path: path, err: err}
		}
		return configSavedMsg{path: path}
	}
}

func (m *Model) configSaved(msg configSavedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, fs.ErrExist):
		return m.notify(fmt.Sprintf("not saved: a config file exists and was left unchanged (%s); add this server there under [[providers]] to keep it", msg.path), toastWarn)
	case msg.err != nil:
		return m.notify(fmt.Sprintf("could not write %s: %v", msg.path, msg.err), toastErr)
	}
	return m.notify("saved to "+msg.path, toastOK)
}

// configPath is where a new config file goes: Options.ConfigPath, else the
// file the config package reads (config.DefaultPath), or "" when no
// directory for it is known.
func (m *Model) configPath() string {
	if m.opts.ConfigPath != "" {
		return m.opts.ConfigPath
	}
	env := m.configEnv()
	if env.Getenv("PARLEY_CONFIG") == "" && config.Dir(env) == "" {
		return ""
	}
	return config.DefaultPath(env)
}

// configEnv is the environment the config package resolves paths in.
func (m *Model) configEnv() config.Env {
	return config.Env{Getenv: m.opts.Getenv, HomeDir: m.opts.Getenv("HOME")}
}
