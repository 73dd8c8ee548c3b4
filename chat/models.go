package chat

import (
	"parley/api"
	"parley/conversation"
)

// models is the model the next turn uses and what the engine knows of
// every model: the config's, the gateway's list as cached, and that list
// as read this run.
type models struct {
	current string
	catalog *api.Catalog
	// listed is the gateway's model list read this run (nil until read).
	listed []string
}

// Model is the model the next turn uses ("" when none is chosen yet).
func (e *Engine) Model() string { return e.models.current }

// SetModel makes name the model of the next turn (the conversation keeps
// its history; a reply in flight keeps its own) and reports whether it
// changed.
func (e *Engine) SetModel(name string) bool {
	changed := name != e.models.current
	e.models.current = name
	return changed
}

// Catalog is what the engine knows of the models: their capabilities and
// the config file that declares them. Never nil.
func (e *Engine) Catalog() *api.Catalog {
	if e.models.catalog == nil {
		e.models.catalog = api.NewCatalog(nil)
	}
	return e.models.catalog
}

// SetCatalog replaces what the engine knows of the models (a new config).
func (e *Engine) SetCatalog(c *api.Catalog) { e.models.catalog = c }

// TurnOptions are the options of the next turn to model: what the engine
// knows of the models, the run's history limit and parameters, and
// whether the images of earlier messages are left out (model was refused
// them, and the user told so).
func (e *Engine) TurnOptions(model string) conversation.TurnOptions {
	o := conversation.TurnOptions{
		Model:         model,
		Catalog:       e.Catalog(),
		MaxHistory:    e.opts.MaxHistory,
		WithoutImages: e.withoutImages != "" && e.withoutImages == model,
	}
	if e.opts.ParamLayers != nil {
		o.Params, o.ParamSources = api.MergeParams(e.opts.ParamLayers(model, e.conv)...)
	}
	return o
}

// Listed is the gateway's model list as read this run, nil until it was.
func (e *Engine) Listed() []string { return e.models.listed }

// SetListed keeps the gateway's model list: the models it names are
// known by name from now on.
func (e *Engine) SetListed(names []string) {
	e.models.listed = names
	e.models.catalog = e.Catalog().WithListed(names)
}

// SetPrices keeps the prices the gateway's model list gives (per model
// id): they price the replies of models the config does not price.
func (e *Engine) SetPrices(prices map[string]api.Price) {
	if len(prices) > 0 {
		e.models.catalog = e.Catalog().WithPrices(prices)
	}
}

// SetGateway keeps what the gateway's model list says each model takes
// and makes: a model it says sees images is never refused them.
func (e *Engine) SetGateway(said []api.ModelInfo) {
	if said != nil {
		e.models.catalog = e.Catalog().WithGateway(said)
	}
}
