package ui

import (
	"cmp"

	tea "charm.land/bubbletea/v2"

	"parley/api"
)

// regenerateWith is what the model picker opened by R on a reply is for:
// answer that reply again with the model chosen, the new answer an
// alternative of it.
type regenerateWith struct{ reply int }

// regenerate answers again in place of message id, a reply or an image
// turn, keeping it as an alternative; a reply is answered by model (""
// is the chat's: r; R names another, chosen in the model picker) and the
// chat's model stays. A model whose client is not built yet answers once
// it is (clientReady).
func (m *Model) regenerate(id int, model string) tea.Cmd {
	sel, ok := m.eng.Conv().ByID(id)
	switch {
	case !ok:
		return m.notes.show("that reply is no longer in this conversation", toastInfo)
	case sel.IsImages():
		ask := imageAsk{prompt: sel.Text, model: sel.Model, again: sel.ID}
		if sel.Image != nil {
			ask.size, ask.n = sel.Image.Size, sel.Image.N
			if sel.Image.From != "" {
				return m.notes.show("the image this edit started from is not at hand any more; select it in the image pane and press e", toastInfo)
			}
		}
		m.focus.toComposer()
		return m.startImages(ask)
	case sel.Role != api.RoleAssistant:
		return m.notes.show("r regenerates a reply: select the reply (↓)", toastInfo)
	case m.eng.Reply() != nil || m.eng.Images() != nil:
		return m.notes.show("a reply is still streaming; press esc to stop it first", toastWarn)
	}
	model = cmp.Or(model, m.eng.Model())
	if pool := m.eng.Clients(); pool.NeedsBuild(model) {
		// Built off Update (api_key_cmd may take seconds); the reply is
		// asked again once it is here.
		return func() tea.Msg {
			c, err := pool.Get(model)
			return clientReadyMsg{pool: pool, model: model, client: c, err: err, regenerate: id}
		}
	}
	r, err := m.eng.Regenerate(sel.ID, m.eng.TurnOptions(model))
	if err != nil {
		return m.notes.show(treeRefusal(err))
	}
	m.focus.toComposer()
	m.tr.List().Bottom()
	return m.startStream(r)
}
