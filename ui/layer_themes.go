package ui

import (
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// chooseTheme is what the theme picker is for: moving the selection
// previews a theme at once, enter keeps it, esc restores before, the
// theme in use when the picker opened.
type chooseTheme struct{ before string }

// newThemePicker lists "auto" and every theme, the one in use selected.
func newThemePicker(ctx *uictx.Context, t terminal) *overlay.Picker {
	p := overlay.NewThemePicker(ctx, t.themes.Themes(), t.themeName, chooseTheme{before: t.themeName})
	return &p
}
