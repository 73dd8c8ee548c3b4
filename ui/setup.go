package ui

import (
	"errors"
	"fmt"
	"io/fs"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/config"
	"parley/termsafe"
	"parley/ui/overlay"
)

// useServer applies the setup screen's choice to the engine: chat against
// the server it found, with the model it listed, from now on; and save
// both to a new config file when asked (the command).
func useServer(eng *chat.Engine, opts Options, res overlay.SetupResult) (tea.Cmd, noticeResult) {
	base := res.BaseURL
	ua := "parley/" + opts.Version
	build := func(string) (*api.Client, error) {
		return api.NewClient(api.ClientConfig{BaseURL: base, UserAgent: ua})
	}
	if opts.ServerClient != nil {
		build = opts.ServerClient(base)
	}
	eng.SetClients(chat.NewClients(build))
	if res.Model != "" {
		eng.SetModel(res.Model)
	}
	said := noticeResult{fmt.Sprintf("chatting with %s at %s", termsafe.Sanitize(eng.Model()), termsafe.Sanitize(base)), toastOK}
	if !res.Save {
		return nil, said
	}
	path := opts.configPath()
	if path == "" {
		return nil, noticeResult{"cannot save: no config directory is known (set XDG_CONFIG_HOME or HOME)", toastErr}
	}
	return saveConfig(path, base, res.Model), said
}

// configSavedMsg reports the first-run config file write.
type configSavedMsg struct {
	path string
	err  error
}

// saveConfig writes a new config file with the chosen server, in the
// background (config.WriteServer never overwrites).
func saveConfig(path, baseURL, model string) tea.Cmd {
	return func() tea.Msg {
		return configSavedMsg{path: path, err: config.WriteServer(path, baseURL, model)}
	}
}

func (msg configSavedMsg) notice() noticeResult {
	switch {
	case errors.Is(msg.err, fs.ErrExist):
		return noticeResult{fmt.Sprintf("not saved: a config file exists and was left unchanged (%s); add this server there under [[providers]] to keep it", msg.path), toastWarn}
	case msg.err != nil:
		return noticeResult{fmt.Sprintf("could not write %s: %v", msg.path, msg.err), toastErr}
	}
	return noticeResult{"saved to " + msg.path, toastOK}
}
