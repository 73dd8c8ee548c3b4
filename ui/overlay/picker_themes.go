package overlay

import (
	"path/filepath"
	"strings"

	"parley/themes"
	"parley/ui/uictx"
)

// AutoTheme is the theme picker's first item: dark or light, chosen from the
// terminal's background.
const AutoTheme = themes.Auto

// NewThemePicker opens the theme picker: "auto", then list (built-ins and
// user themes, in the order given), with current selected. It is live:
// moving the selection returns PickerPreview (apply the theme without
// saving), esc returns PickerCancel with the theme that was current (apply
// it again), enter PickerChoose. Its results carry purpose (see
// PickerOptions.For).
func NewThemePicker(ctx *uictx.Context, list []themes.Theme, current string, purpose any) Picker {
	return NewPicker(ctx, ThemeItems(list, current), PickerOptions{
		Title: "Theme",
		Live:  true,
		Empty: "no themes",
		For:   purpose,
	})
}

// ThemeItems builds the theme picker's rows: "auto" and each theme with a
// muted note (dark or light, and the file a user theme came from).
func ThemeItems(list []themes.Theme, current string) []PickerItem {
	items := []PickerItem{{
		Value:   AutoTheme,
		Detail:  "dark or light, following the terminal",
		Current: strings.EqualFold(current, AutoTheme),
	}}
	seen := map[string]bool{AutoTheme: true}
	for _, t := range list {
		k := strings.ToLower(t.Name)
		if t.Name == "" || seen[k] {
			continue
		}
		seen[k] = true
		detail := "light"
		if t.Dark {
			detail = "dark"
		}
		if strings.EqualFold(detail, t.Name) {
			detail = "" // "dark  dark" says nothing
		}
		if t.Source != "" && t.Source != "builtin" {
			detail = strings.TrimPrefix(detail+" · "+filepath.Base(t.Source), " · ")
		}
		items = append(items, PickerItem{
			Value:   t.Name,
			Detail:  detail,
			Current: strings.EqualFold(t.Name, current),
		})
	}
	return items
}
