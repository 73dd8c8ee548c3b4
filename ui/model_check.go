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
	prices map[string]api.Price
	said   []api.ModelInfo // what the list says each model takes and makes
	// vision: asked because an image was attached for a model nothing
	// here says sees images (see askAboutVision).
	vision bool
	err    error
}

// modelListTimeout bounds the check of a typed model name.
const modelListTimeout = 10 * time.Second

// checkModelName warns when a model typed with /model is neither configured
// nor listed by the gateway (it is used all the same: gateways serve models
// they do not list). With the gateway's list read this run the warning is
// said at once; otherwise the list is asked for in the background and the
// warning comes with it.
func checkModelName(eng *chat.Engine, base context.Context, name string) (tea.Cmd, noticeResult) {
	for _, md := range eng.Catalog().Configured() {
		if md.Name == name {
			return nil, noticeResult{}
		}
	}
	if eng.Listed() != nil {
		if slices.Contains(eng.Listed(), name) {
			return nil, noticeResult{}
		}
		return nil, noticeResult{unlistedModel(name), toastWarn}
	}
	if !eng.Clients().Configured() {
		return nil, noticeResult{}
	}
	return askModelList(eng.Clients(), base, name, false), noticeResult{}
}

// askModelList asks the gateway of name's provider for its model list,
// what it says of each model and its prices, within modelListTimeout.
func askModelList(pool *chat.Clients, base context.Context, name string, vision bool) tea.Cmd {
	return func() tea.Msg {
		c, err := pool.Get(name)
		if err != nil {
			return modelCheckedMsg{name: name, vision: vision, err: err}
		}
		ctx, cancel := context.WithTimeout(base, modelListTimeout)
		defer cancel()
		said, prices, err := c.ListModelCatalog(ctx)
		return modelCheckedMsg{name: name, models: api.ModelIDs(said), said: said, prices: prices, vision: vision, err: err}
	}
}

// checkedModel is the warning when the model asked for is not in the
// gateway's list (and is still the one in use). A list that could not be
// read says nothing: the name may well be right.
func checkedModel(msg modelCheckedMsg, model string) (listed []string, warning string) {
	if msg.err != nil || msg.models == nil {
		return nil, ""
	}
	if msg.name != model || slices.Contains(msg.models, msg.name) {
		return msg.models, ""
	}
	return msg.models, unlistedModel(msg.name)
}

func unlistedModel(name string) string {
	return "the gateway does not list " + termsafe.Sanitize(name) + "; parley sends to it anyway (check the spelling: /model alone lists the models)"
}
