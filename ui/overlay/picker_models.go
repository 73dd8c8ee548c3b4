package overlay

import (
	"sort"
	"strings"

	"parley/api"
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
