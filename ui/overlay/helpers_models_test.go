package overlay

import (
	"parley/api"
	"parley/ui/uictx"
)

// modelPickerOn opens the model picker on the catalog's configured
// models with current selected, as the root does before the gateway's list
// arrives.
func modelPickerOn(ctx *uictx.Context, cat *api.Catalog, current, defaultModel string) Picker {
	return NewPicker(ctx, ModelItems(cat, current, defaultModel, nil), ModelPickerOptions())
}
