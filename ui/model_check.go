package ui

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/termsafe"
)

// modelCheckedMsg brings the gateway's model list, asked for to check a
// model name typed with /model.
type modelCheckedMsg struct {
	name   string
	models []string
	said   []api.ModelInfo // what the list says each model takes and makes
	// vision: asked because an image was attached for a model nothing
	// here says sees images (see gatewayList.askAboutVision).
	vision bool
	err    error
}

// modelListTimeout bounds the check of a typed model name.
const modelListTimeout = 10 * time.Second

// checkModelName warns when a model typed with /model is neither configured
// nor listed by the gateway (it is used all the same: gateways serve models
// they do not list). With the gateway's list not asked for yet this run,
// it is asked for in the background and the warning comes with it.
func (m *Model) checkModelName(name string) tea.Cmd {
	for _, md := range m.catalog.Configured() {
		if md.Name == name {
			return nil
		}
	}
	if m.gateway.models != nil {
		if slices.Contains(m.gateway.models, name) {
			return nil
		}
		return m.notify(unlistedModel(name), toastWarn)
	}
	if !m.eng.Clients().Configured() {
		return nil
	}
	return askModelList(m.eng.Clients(), m.base, name, false)
}

// askModelList asks the gateway of name's provider for its model list and
// what it says of each model, within modelListTimeout.
func askModelList(pool *chat.Clients, base context.Context, name string, vision bool) tea.Cmd {
	return func() tea.Msg {
		c, err := pool.Get(name)
		if err != nil {
			return modelCheckedMsg{name: name, vision: vision, err: err}
		}
		ctx, cancel := context.WithTimeout(base, modelListTimeout)
		defer cancel()
		said, err := c.ListModelInfo(ctx)
		return modelCheckedMsg{name: name, models: api.ModelIDs(said), said: said, vision: vision, err: err}
	}
}

// modelChecked keeps the gateway's list and warns when the model asked for
// is not in it (and is still the one in use). A list that could not be
// read says nothing: the name may well be right.
func (g *gatewayList) checked(msg modelCheckedMsg, model string) (listed []string, warning string) {
	if msg.err != nil || msg.models == nil {
		return nil, ""
	}
	g.models = msg.models
	if msg.name != model || slices.Contains(msg.models, msg.name) {
		return msg.models, ""
	}
	return msg.models, unlistedModel(msg.name)
}

func unlistedModel(name string) string {
	return "the gateway does not list " + termsafe.Sanitize(name) + "; parley sends to it anyway (check the spelling: /model alone lists the models)"
}
