package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
)

// clientReadyMsg reports a client built ahead of a send.
type clientReadyMsg struct {
	pool   *chat.Clients
	model  string
	client *api.Client
	err    error
	// regenerate is the reply R asked model to answer again once its
	// client is built (0: none).
	regenerate int
}

// prepareClient builds the model's client in a command, so the first send
// does not wait (resolving a key may run api_key_cmd); nil when there is
// nothing to build.
func prepareClient(pool *chat.Clients, model string) tea.Cmd {
	if !pool.NeedsBuild(model) {
		return nil
	}
	return func() tea.Msg {
		c, err := pool.Get(model)
		return clientReadyMsg{pool: pool, model: model, client: c, err: err}
	}
}
