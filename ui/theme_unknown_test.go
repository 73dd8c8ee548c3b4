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
		h.clearDraft() // a refused command keeps its line
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

// The start-up banner wraps its heading and its problems, never cutting
// them: at 30 and 40 columns what does not fit ends with the pointer to
// the notices pane, whole, and the pane has every word.
func TestStartBannerIsNeverCut(t *testing.T) {
	want := `theme "nope" does not exist (did you mean nord?), so auto is used: f3 opens the theme picker, /theme NAME chooses one`
	for _, w := range []int{30, 40, 80} {
		h := newHarness(t, w, 24, func(o *Options) { o.Theme = "nope" })
		screen := h.screen()
		flat := strings.Join(strings.Fields(screen), " ")
		if !strings.Contains(flat, "parley found problems at start (esc dismisses):") {
			t.Fatalf("%d columns: the heading is cut:\n%s", w, screen)
		}
		if !strings.Contains(flat, want) && !strings.Contains(flat, "more lines: f4 or /notices shows them all") {
			t.Fatalf("%d columns: the problem is cut without the pointer:\n%s", w, screen)
		}
		h.key("f4")
		if flat := strings.Join(strings.Fields(strings.ReplaceAll(h.screen(), "│", " ")), " "); !strings.Contains(flat, "Notices · f4 or /notices closes") {
			t.Fatalf("%d columns: the notices pane's title is cut:\n%s", w, h.screen())
		}
		if flat := strings.Join(strings.Fields(strings.ReplaceAll(h.screen(), "│", " ")), " "); !strings.Contains(flat, want) {
			t.Fatalf("%d columns: the notices pane does not have the problem whole:\n%s", w, h.screen())
		}
	}
}
