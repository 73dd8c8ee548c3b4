package themes

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// everyStyle calls fn with the name and style of every lipgloss.Style in v
// (a Styles value), descending into nested structs (help.Styles,
// textarea.Styles).
func everyStyle(t *testing.T, v reflect.Value, path string, fn func(string, lipgloss.Style)) int {
	t.Helper()
	styleType := reflect.TypeFor[lipgloss.Style]()
	n := 0
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		name := path + v.Type().Field(i).Name
		switch {
		case f.Type() == styleType:
			fn(name, f.Interface().(lipgloss.Style))
			n++
		case f.Kind() == reflect.Struct && v.Type().Field(i).IsExported():
			n += everyStyle(t, f, name+".", fn)
		}
	}
	return n
}

func TestStylesUseThemeColours(t *testing.T) {
	for _, th := range Builtins() {
		s := th.Styles(false)
		if s.Theme != th.Name || s.NoColor {
			t.Fatalf("%s: Styles header %+v", th.Name, s.Theme)
		}
		checks := []struct {
			name  string
			style lipgloss.Style
			want  string
		}{
			{"Accent", s.Accent, fgCode(th.Accent)},
			{"Error", s.Error, fgCode(th.Error)},
			{"UserLabel", s.UserLabel, fgCode(th.UserLabel)},
			{"AssistantLabel", s.AssistantLabel, fgCode(th.AssistantLabel)},
			{"Failed", s.Failed, fgCode(th.Error)},
			{"Interrupted", s.Interrupted, fgCode(th.Warning)},
			{"Streaming", s.Streaming, fgCode(th.Info)},
			{"Placeholder", s.Placeholder, fgCode(th.Control)},
			{"PickerSelected", s.PickerSelected, bgCode(th.Selection)},
			{"StatusBar", s.StatusBar, bgCode(th.Surface)},
			{"StatusModel", s.StatusModel, bgCode(th.Surface)},
			{"ComposerFocused", s.ComposerFocused, fgCode(th.BorderFocus)},
			{"ComposerBlurred", s.ComposerBlurred, fgCode(th.Border)},
			{"Overlay", s.Overlay, fgCode(th.BorderFocus)},
			{"Help.FullKey", s.Help.FullKey, fgCode(th.Accent)},
			{"Textarea.Focused.Prompt", s.Textarea.Focused.Prompt, fgCode(th.Accent)},
		}
		for _, c := range checks {
			if out := c.style.Render("x"); !strings.Contains(out, c.want) {
				t.Errorf("%s: %s.Render = %q, want %s", th.Name, c.name, out, c.want)
			}
		}
		// The composer must not change size when focus moves.
		f, b := s.ComposerFocused.Render("hi"), s.ComposerBlurred.Render("hi")
		if lipgloss.Width(f) != lipgloss.Width(b) || lipgloss.Height(f) != lipgloss.Height(b) {
			t.Errorf("%s: focused and blurred composer differ in size", th.Name)
		}
	}
}

func TestStylesNoColor(t *testing.T) {
	for _, th := range Builtins() {
		s := th.Styles(true)
		if !s.NoColor {
			t.Fatal("NoColor not recorded")
		}
		n := everyStyle(t, reflect.ValueOf(s), "", func(name string, st lipgloss.Style) {
			out := st.Render("some text")
			if c := colourSGR(out); c != "" {
				t.Errorf("%s: %s has colour SGR %q with NO_COLOR", th.Name, name, c)
			}
		})
		if n < 40 {
			t.Fatalf("walked only %d styles; the reflection walk is broken", n)
		}
		if s.Textarea.Cursor.Color != nil {
			t.Errorf("%s: cursor colour set with NO_COLOR", th.Name)
		}
		// Focus, selection and state must stay visible through attributes.
		if s.PickerSelected.Render("item") == s.PickerItem.Render("item") {
			t.Errorf("%s: selected and unselected picker items look the same without colour", th.Name)
		}
		if !hasAttr(s.PickerSelected.Render("item"), "7") {
			t.Errorf("%s: selected item is not reverse video without colour", th.Name)
		}
		if s.ComposerFocused.Render("x") == s.ComposerBlurred.Render("x") {
			t.Errorf("%s: focused and blurred composer look the same without colour", th.Name)
		}
		if !hasAttr(s.Placeholder.Render("␛"), "7") {
			t.Errorf("%s: placeholders do not stand out without colour", th.Name)
		}
		states := map[string]bool{}
		for _, st := range []lipgloss.Style{s.Streaming, s.Interrupted, s.Failed, s.Text} {
			states[st.Render("state")] = true
		}
		if len(states) != 4 {
			t.Errorf("%s: turn states are not distinguishable without colour", th.Name)
		}
	}
}

func TestStylesColourModeHasColour(t *testing.T) {
	// The NO_COLOR test must be able to fail: with colour on, the same walk
	// finds colour.
	s := darkTheme().Styles(false)
	found := 0
	everyStyle(t, reflect.ValueOf(s), "", func(_ string, st lipgloss.Style) {
		if colourSGR(st.Render("x")) != "" {
			found++
		}
	})
	if found < 30 {
		t.Fatalf("only %d styles carry colour in colour mode", found)
	}
}
