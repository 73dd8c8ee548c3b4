package ui

import (
	"strings"
	"testing"

	"parley/config"
)

// /theme with a name that is no theme says the nearest names and the key
// that opens the theme picker (the key map's, here moved to f6).
func TestUnknownThemeNamesTheKeyAndTheNearest(t *testing.T) {
	cfg := &config.Config{Keys: map[string][]string{"theme_picker": {"f6"}}}
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = cfg })
	for _, c := range []struct{ typed, want string }{
		{"/theme nope", `there is no theme named "nope" (did you mean nord?): f6 opens the theme picker, /theme NAME chooses one`},
		{"/theme xyzzy", `there is no theme named "xyzzy" (the nearest are auto, dark and light): f6 opens the theme picker`},
	} {
		h.typeText(c.typed)
		h.key("enter")
		if flat := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(flat, c.want) {
			t.Fatalf("%s does not say %q:\n%s", c.typed, c.want, h.screen())
		}
		h.key("esc")
	}
}

// --theme (or theme = in the config) with a name that is no theme says
// so at the start, with the nearest name and the picker's key.
func TestUnknownStartThemeNamesTheKey(t *testing.T) {
	h := newHarness(t, 120, 30, func(o *Options) { o.Theme = "nope" })
	want := `theme "nope" does not exist (did you mean nord?), so auto is used: f3 opens the theme picker, /theme NAME chooses one`
	if flat := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(flat, want) {
		t.Fatalf("the start does not say %q:\n%s", want, h.screen())
	}
}
