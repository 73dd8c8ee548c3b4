package ui

import (
	"cmp"
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/termsafe"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// modelLayer is the model picker: the configured models with their
// capabilities, the current and default models, and the models the gateway
// lists (asked for in the background when the picker opens).
type modelLayer struct {
	p overlay.Picker
	// gen tells this opening's gateway list from a late one of an earlier
	// opening.
	gen int
	// sendAfter: the picker opened because a message waited for a model;
	// choosing one sends it.
	sendAfter bool
	// catalog, current and def make the rows (rows), again once the
	// gateway's list arrives.
	catalog      *api.Catalog
	current, def string
	// forImages, when set, makes this the image model picker: it lists
	// only the models that can do cap, and choosing one makes the images
	// waiting in ask.
	forImages *imageAsk
	imageCap  api.Capability
	// regenerate, when set, is the reply the chosen model answers again
	// (R on a reply): the chat's model stays as it is.
	regenerate int
	km         *keys.Map
}

// modelsListedMsg carries the gateway's model list.
type modelsListedMsg struct {
	gen    int
	models []string
	// prices are those the list gave (OpenRouter's pricing).
	prices map[string]api.Price
	said   []api.ModelInfo
	err    error
}

func (l *modelLayer) SetSize(w, h int)         { l.p.SetSize(w, h) }
func (l *modelLayer) Draw() (string, int, int) { return l.p.Box() }
func (l *modelLayer) Hints() []uictx.Hint      { return pickerHints(l.km) }

func (l *modelLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	if ml, ok := msg.(modelsListedMsg); ok {
		if ml.gen != l.gen {
			return nil, nil
		}
		if ml.err != nil {
			l.p.SetError(fmt.Errorf("the gateway's model list is not available: %w", ml.err))
			return nil, nil
		}
		l.p.SetItems(l.rows(ml.models))
		return nil, modelsListed{models: ml.models, said: ml.said, prices: ml.prices}
	}
	var res overlay.PickerResult
	l.p, res = l.p.Update(msg)
	switch res.Action {
	case overlay.PickerCancel:
		return nil, closeLayer{}
	case overlay.PickerChoose:
		if ask := l.forImages; ask != nil {
			a := *ask
			a.model = res.Item.Value
			return nil, imagesAsked{ask: a}
		}
		if l.regenerate != 0 {
			return nil, regenerateChosen{reply: l.regenerate, model: res.Item.Value}
		}
		return nil, modelChosen{name: res.Item.Value, send: l.sendAfter}
	}
	return nil, nil
}

// rows are the picker's rows with the gateway's list: the chat models,
// the current and the default marked, or for the image model picker the
// models that can do its capability.
func (l *modelLayer) rows(listed []string) []overlay.PickerItem {
	if l.forImages == nil {
		return chatModels(l.catalog, overlay.ModelItems(l.catalog, l.current, l.def, listed))
	}
	cat := l.catalog.WithListed(listed)
	all := overlay.ModelItems(cat, "", "", listed)
	out := all[:0:0]
	for _, it := range all {
		if cat.Require(it.Value, l.imageCap) == nil {
			out = append(out, it)
		}
	}
	return out
}

// openModels opens the model picker for what want says it is for: the
// chat's next model (sendAfter: a message sent with no model given, no
// --model and no default_model, which it keeps and sends once a model is
// chosen), the model that makes the images of forImages, or the model
// that answers a reply again (regenerate, current being the reply's).
func (m *Model) openModels(want modelLayer) tea.Cmd {
	l := &want
	// The layer's number is the stack's after it is pushed: a list that
	// arrives for an earlier picker is not this one's.
	l.gen = m.layers.gen + 1
	l.catalog, l.km = m.eng.Catalog(), &m.ctx.Keys
	if l.forImages == nil {
		l.current, l.def = cmp.Or(l.current, m.eng.Model()), m.opts.defaultModel()
	}
	l.p = overlay.NewPicker(m.ctx, l.rows(nil), overlay.ModelPickerOptions())
	m.layers.push(layer{Component: l, kind: "models"})
	var said tea.Cmd
	if l.sendAfter {
		said = m.notes.show("choose a model first; the message goes once you do (set default_model in the config to skip this)", toastInfo)
	}
	if !m.eng.Clients().Configured() {
		return said
	}
	l.p.SetLoading(overlay.ModelsLoading)
	return tea.Batch(said, listModels(m.base, m.eng.Clients(), m.eng.Model(), l.gen))
}

// listModels asks the gateway of model's provider for its models. The
// client is built here, off the Update goroutine (api_key_cmd can be slow).
func listModels(ctx context.Context, pool *chat.Clients, model string, gen int) tea.Cmd {
	return func() tea.Msg {
		c, err := pool.Get(model)
		if err != nil {
			return modelsListedMsg{gen: gen, err: err}
		}
		said, prices, err := c.ListModelCatalog(ctx)
		return modelsListedMsg{gen: gen, models: api.ModelIDs(said), said: said, prices: prices, err: err}
	}
}

// chatModels leaves out image models (generation or editing only): this
// picker chooses who answers the chat, and gateways refuse chat requests to
// them. The current model always stays.
func chatModels(cat *api.Catalog, items []overlay.PickerItem) []overlay.PickerItem {
	out := items[:0:0]
	for _, it := range items {
		if cat.Lookup(it.Value).Caps.ImageOnly() && !it.Current {
			continue
		}
		out = append(out, it)
	}
	return out
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
