package api

import (
	"slices"
	"strings"
)

// ModelIDs are the ids of infos, in order.
func ModelIDs(infos []ModelInfo) []string {
	ids := make([]string, len(infos))
	for i, m := range infos {
		ids[i] = m.ID
	}
	return ids
}

// WithGateway returns a copy of the catalog that knows what the gateway's
// model list says each model takes and makes (ListModelInfo); its ids
// are WithListed's business. The gateway's word wins over the built-in guess by name
// and over a plain chat model's defaults; the config's word wins over it
// (Model.Declared). A model the gateway lists with image input is never
// refused images; one it lists with text input alone is refused them.
func (c *Catalog) WithGateway(infos []ModelInfo) *Catalog {
	said := make(map[string]ModelInfo, len(infos))
	for _, m := range infos {
		if m.Said() || m.Output != nil || m.Tools != nil {
			said[strings.ToLower(m.ID)] = m
		}
	}
	n := &Catalog{gateway: said}
	if c != nil {
		n.configured, n.configPath, n.listed, n.fixed = c.configured, c.configPath, c.listed, c.fixed
		n.prices = c.prices
	}
	return n
}

// GatewaySaid reports what the gateway's model list said of model, if it
// said anything.
func (c *Catalog) GatewaySaid(model string) (ModelInfo, bool) {
	if c == nil {
		return ModelInfo{}, false
	}
	m, ok := c.gateway[strings.ToLower(model)]
	return m, ok
}

// gatewaySays applies what the gateway's list says of m over its
// capabilities, except those the config declares. A model that only makes
// or edits images stays so: its listing's input says what its prompts
// take, not that it chats.
func (c *Catalog) gatewaySays(m Model) Model {
	info, ok := c.GatewaySaid(m.Name)
	if !ok || m.Caps.ImageOnly() {
		return m
	}
	changed := false
	if info.Said() && !slices.Contains(m.Declared, CapVision) {
		m.Caps.Vision, changed = info.TakesImages(), true
	}
	if info.Output != nil && !slices.Contains(m.Declared, CapImageOutput) {
		m.Caps.ImageOutput, changed = info.MakesImages(), true
	}
	if info.Tools != nil && !slices.Contains(m.Declared, CapTools) {
		m.Caps.NoTools, changed = !*info.Tools, true
	}
	if changed && m.Source != SourceConfig {
		m.Source = SourceGateway
	}
	return m
}
