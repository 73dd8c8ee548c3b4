package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// themeLayer is the theme picker: moving the selection previews a theme at
// once, esc restores the one in use before the picker opened.
type themeLayer struct {
	p      overlay.Picker
	before string
	km     *keys.Map
}

func (l *themeLayer) SetSize(w, h int)         { l.p.SetSize(w, h) }
func (l *themeLayer) Draw() (string, int, int) { return l.p.Box() }
func (l *themeLayer) Hints() []uictx.Hint      { return pickerHints(l.km) }

func (l *themeLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	var res overlay.PickerResult
	l.p, res = l.p.Update(msg)
	switch res.Action {
	case overlay.PickerPreview:
		return nil, themeResult{name: res.Item.Value}
	case overlay.PickerCancel:
		return nil, themeResult{name: l.before, close: true}
	case overlay.PickerChoose:
		return nil, themeResult{name: res.Item.Value, close: true, announce: true}
	}
	return nil, nil
}

// newThemeLayer lists "auto" and every theme, the one in use selected.
func newThemeLayer(ctx *uictx.Context, t terminal) *themeLayer {
	return &themeLayer{p: overlay.NewThemePicker(ctx, t.themes.Themes(), t.themeName), before: t.themeName, km: &ctx.Keys}
}

// pickerHints are the keys of a filtered list.
func pickerHints(km *keys.Map) []uictx.Hint {
	return []uictx.Hint{{Key: "type", Desc: "filter"}, {Key: keyOf(km.ListUp) + "/" + keyOf(km.ListDown), Desc: "move"}, {Key: keyOf(km.Select), Desc: "choose"}, {Key: keyOf(km.Close), Desc: "cancel"}}
}
