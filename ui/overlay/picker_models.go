package overlay

import (
	"sort"
	"strings"

	"parley/api"
	"parley/ui/uictx"
)

// ModelsLoading is the status line while the gateway's model list is on its
// way (Picker.SetLoading).
const ModelsLoading = "⋯ asking the gateway which models it has…"

// ModelPickerOptions are the options of the model picker: typing a name that
// is not listed offers it as a custom model.
func ModelPickerOptions() PickerOptions {
	return PickerOptions{
		Title:        "Model",
		AllowCustom:  true,
		CustomDetail: "use this model name",
		Empty:        "no models configured: type a model name",
	}
}

// ModelList is what a model picker lists: the catalog's models with the
// current and the default marked, and the gateway's models once its list
// arrives (ModelsListed).
type ModelList struct {
	Catalog          *api.Catalog
	Current, Default string
	// Can, when set, makes the picker list only the models that can do it
	// (the image model picker; Current and Default are not marked).
	// Otherwise it lists the chat models: image-only models are left out,
	// the current one stays.
	Can api.Capability
	// Asked numbers the gateway's list asked for this picker: a list
	// whose Asked differs is an earlier picker's.
	Asked int
}

// ModelsListed is the gateway's model list for the model picker that
// asked for it. The picker shows it and returns it as its action, so the
// holder keeps what the gateway said (its models, what each takes and
// makes, their prices). When the list failed, Err is the sentence the
// picker shows, for the holder to keep whole with its notices.
type ModelsListed struct {
	Asked  int
	Models []string
	Prices map[string]api.Price
	Said   []api.ModelInfo
	Err    error
}

// NewModelPicker opens a model picker over list for purpose (see
// PickerOptions.For); typing a name that is not listed offers it.
func NewModelPicker(ctx *uictx.Context, list ModelList, purpose any) Picker {
	opts := ModelPickerOptions()
	opts.For = purpose
	p := NewPicker(ctx, list.Items(nil), opts)
	p.models = &list
	return p
}

// Items are the picker's rows with the gateway's list (nil before it
// arrives).
func (l ModelList) Items(listed []string) []PickerItem {
	if l.Can == 0 {
		return chatModels(l.Catalog, ModelItems(l.Catalog, l.Current, l.Default, listed))
	}
	cat := l.Catalog.WithListed(listed)
	all := ModelItems(cat, "", "", listed)
	out := all[:0:0]
	for _, it := range all {
		if cat.Require(it.Value, l.Can) == nil {
			out = append(out, it)
		}
	}
	return out
}

// chatModels leaves out image models (generation or editing only): this
// picker chooses who answers the chat, and gateways refuse chat requests to
// them. The current model always stays.
func chatModels(cat *api.Catalog, items []PickerItem) []PickerItem {
	out := items[:0:0]
	for _, it := range items {
		if cat.Lookup(it.Value).Caps.ImageOnly() && !it.Current {
			continue
		}
		out = append(out, it)
	}
	return out
}

// ModelItems builds the model picker's rows: the configured models in config
// order (the provider shown when there are several), the current and the
// default model when they are not configured, then the ids the gateway
// listed that are not there yet, sorted, marked "gateway". Each row has its
// capability badges (configured, else built-in knowledge of the name).
// Names compare case-insensitively; the ids stay exactly as sent.
func ModelItems(cat *api.Catalog, current, defaultModel string, listed []string) []PickerItem {
	configured := cat.Configured()
	providers := map[string]bool{}
	for _, md := range configured {
		providers[md.Provider] = true
	}
	several := len(providers) > 1

	var out []PickerItem
	seen := map[string]bool{}
	add := func(md api.Model, detail string) {
		k := strings.ToLower(md.Name)
		if md.Name == "" || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, PickerItem{
			Value:   md.Name,
			Detail:  detail,
			Badges:  ModelBadges(md.Caps),
			Current: current != "" && strings.EqualFold(md.Name, current),
		})
	}
	for _, md := range configured {
		d := ""
		if several {
			d = md.Provider
		}
		add(md, d)
	}
	if current != "" {
		add(cat.Lookup(current), "")
	}
	if defaultModel != "" {
		add(cat.Lookup(defaultModel), "default")
	}
	ids := append([]string(nil), listed...)
	sort.SliceStable(ids, func(i, j int) bool { return strings.ToLower(ids[i]) < strings.ToLower(ids[j]) })
	for _, id := range ids {
		if strings.TrimSpace(id) != "" {
			add(cat.Lookup(id), "gateway")
		}
	}
	return out
}

// ModelBadges lists a model's capabilities, most important first: vision,
// image generation, image editing, usage reporting.
func ModelBadges(c api.Capabilities) []Badge {
	var bs []Badge
	if c.Vision {
		bs = append(bs, Badge{Kind: BadgeVision, Text: "vision", Short: "vis"})
	}
	if c.ImageGeneration {
		bs = append(bs, Badge{Kind: BadgeImageGen, Text: "image gen", Short: "gen"})
	}
	if c.ImageEdit {
		bs = append(bs, Badge{Kind: BadgeImageEdit, Text: "image edit", Short: "edit"})
	}
	if c.StreamUsage {
		bs = append(bs, Badge{Kind: BadgeUsage, Text: "usage", Short: "use"})
	}
	return bs
}
