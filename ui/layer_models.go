package ui

import (
	"cmp"
	"context"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/termsafe"
	"parley/ui/overlay"
)

// What a model picker is for (overlay.PickerOptions.For): the chat's
// next model, or the model that makes images; R on a reply opens it for
// regenerateWith.
type (
	// chooseModel chooses the chat's model; send: the picker opened
	// because a message waited for a model, and choosing one sends it.
	chooseModel struct{ send bool }
	// chooseImageModel chooses the model that makes the images ask waits
	// for.
	chooseImageModel struct{ ask imageAsk }
)

// openModels opens the model picker for purpose over list: the chat's
// next model (chooseModel; with send, for a message sent with no model
// given, no --model and no default_model, which it keeps and sends once a
// model is chosen), the model that makes the images of chooseImageModel
// (list.Can says what it must do), or the model that answers a reply
// again (regenerateWith, list.Current being the reply's). The gateway's
// list is asked for in the background.
func (m *Model) openModels(purpose any, list overlay.ModelList) tea.Cmd {
	// The list's number is the stack's after the picker is pushed: a
	// list that arrives for an earlier picker is not this one's.
	list.Asked = m.layers.gen + 1
	list.Catalog = m.eng.Catalog()
	if list.Can == 0 {
		list.Current, list.Default = cmp.Or(list.Current, m.eng.Model()), m.opts.defaultModel()
	}
	p := overlay.NewModelPicker(m.ctx, list, purpose)
	m.layers.push(layer{Component: &p, kind: "models"})
	var said tea.Cmd
	if c, ok := purpose.(chooseModel); ok && c.send {
		said = m.notes.show("choose a model first; the message goes once you do (set default_model in the config to skip this)", toastInfo)
	}
	if !m.eng.Clients().Configured() {
		return said
	}
	p.SetLoading(overlay.ModelsLoading)
	return tea.Batch(said, listModels(m.base, m.eng.Clients(), m.eng.Model(), list.Asked))
}

// listModels asks the gateway of model's provider for its models, for
// the picker numbered asked. The client is built here, off the Update
// goroutine (api_key_cmd can be slow).
func listModels(ctx context.Context, pool *chat.Clients, model string, asked int) tea.Cmd {
	return func() tea.Msg {
		c, err := pool.Get(model)
		if err != nil {
			return overlay.ModelsListed{Asked: asked, Err: err}
		}
		said, prices, err := c.ListModelCatalog(ctx)
		return overlay.ModelsListed{Asked: asked, Models: api.ModelIDs(said), Said: said, Prices: prices, Err: err}
	}
}

// useModel switches the model for the next turn (the conversation keeps its
// history), remembers it for the next start, and sends the waiting message
// when the picker opened for one.
func (m *Model) useModel(name string, send bool) tea.Cmd {
	if name == "" {
		return nil
	}
	changed := m.eng.SetModel(name)
	cmds := []tea.Cmd{prepareClient(m.eng.Clients(), name), rememberModel(m.opts, name)}
	if send && !m.comp.empty() {
		return tea.Batch(append(cmds, m.send())...)
	}
	if !changed {
		return tea.Batch(cmds...)
	}
	msg := "next reply from " + termsafe.Sanitize(m.eng.Model())
	if m.eng.Reply() != nil {
		msg = "the reply in flight keeps its model; the next one comes from " + termsafe.Sanitize(m.eng.Model())
	}
	return tea.Batch(append(cmds, m.notes.show(msg, toastOK))...)
}
