package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/termsafe"
	"parley/ui/overlay"
)

// regenerateChosen is the model picker's answer to R on a reply: answer
// that reply again with model, the new answer an alternative of it.
type regenerateChosen struct {
	reply int
	model string
}

// pickRegenerateModel is R on a reply: the model picker, whose choice
// answers the reply's question again (the chat's model stays).
func pickRegenerateModel(m *Model, sel conversation.Message) tea.Cmd {
	if sel.Role != api.RoleAssistant {
		return m.notes.show("R regenerates a reply with another model: select a reply (↓)", toastInfo)
	}
	l := &modelLayer{gen: m.layers.gen + 1, regenerate: sel.ID, catalog: m.eng.Catalog(), current: sel.Model, def: m.opts.defaultModel(), km: &m.ctx.Keys}
	l.p = overlay.NewPicker(m.ctx, l.rows(m.eng.Listed()), overlay.ModelPickerOptions())
	m.layers.push(l)
	if !m.eng.Clients().Configured() {
		return nil
	}
	l.p.SetLoading(overlay.ModelsLoading)
	return listModels(m.base, m.eng.Clients(), m.eng.Model(), l.gen)
}

// regenerateChosenModel answers the picked reply again with the model
// chosen for it.
func regenerateChosenModel(m *Model, r regenerateChosen) tea.Cmd {
	sel, ok := m.eng.Conv().ByID(r.reply)
	if !ok {
		return m.notes.show("that reply is no longer in this conversation", toastInfo)
	}
	if pool := m.eng.Clients(); pool.NeedsBuild(r.model) {
		// Built off Update (api_key_cmd may take seconds); the reply is
		// asked again once it is here (clientReady).
		return func() tea.Msg {
			c, err := pool.Get(r.model)
			return clientReadyMsg{pool: pool, model: r.model, client: c, err: err, regenerate: r.reply}
		}
	}
	return regenerateWith(m, sel, r.model)
}

// regenerateWith answers the question of sel, a reply, again with model:
// the new reply is an alternative of sel, the path switched to it.
func regenerateWith(m *Model, sel conversation.Message, model string) tea.Cmd {
	if m.eng.Reply() != nil || m.eng.Images() != nil {
		return m.notes.show("a reply is still streaming; press esc to stop it first", toastWarn)
	}
	if m.eng.Clients().NeedsBuild(model) {
		again := "r"
		if model != m.eng.Model() {
			again = "R and " + termsafe.Sanitize(model)
		}
		return tea.Batch(prepareClient(m.eng.Clients(), model), m.notes.show("connecting to the gateway; press "+again+" again in a moment", toastInfo))
	}
	o := m.eng.TurnOptions(model)
	r, err := m.eng.Regenerate(sel.ID, o)
	if err != nil {
		return m.notes.show(treeRefusal(err))
	}
	m.focus.toComposer()
	m.tr.List().Bottom()
	return m.startStream(r)
}
