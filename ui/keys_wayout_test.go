package ui

import (
	"strings"
	"testing"

	"parley/config"
)

// quit = ["esc"] is refused for cancel and close, and the start says so:
// esc dismisses the banner (which says esc) and leaves a picker, and does
// not quit with a draft in the composer.
func TestQuitOnEscKeepsTheWayOut(t *testing.T) {
	cfg := &config.Config{Keys: map[string][]string{"quit": {"esc"}}}
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = cfg })
	flat := strings.Join(strings.Fields(h.screen()), " ")
	for _, want := range []string{"parley found problems at start (esc dismisses):", "quit cannot have esc", "(quit keeps ctrl+q)"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("the start does not say %q:\n%s", want, h.screen())
		}
	}
	h.typeText("a draft")
	h.key("f3")
	if !strings.Contains(h.screen(), "esc restore") {
		t.Fatalf("the theme picker does not name esc:\n%s", h.screen())
	}
	h.key("esc")
	if h.quit || strings.Contains(h.screen(), "esc restore") {
		t.Fatalf("esc did not close the picker (quit=%v):\n%s", h.quit, h.screen())
	}
	h.key("esc")
	if h.quit || strings.Contains(h.screen(), "problems at start") || !strings.Contains(h.screen(), "a draft") {
		t.Fatalf("esc did not just dismiss the banner (quit=%v):\n%s", h.quit, h.screen())
	}
}

// With cancel and close moved to ctrl+g, esc may quit: the banner and the
// picker name ctrl+g, and ctrl+g does what they say.
func TestHintsNameTheLiveWayOut(t *testing.T) {
	cfg := &config.Config{Keys: map[string][]string{"quit": {"esc"}, "cancel": {"ctrl+g"}, "close": {"ctrl+g"}, "lauch": {"f5"}}}
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = cfg })
	if flat := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(flat, "parley found problems at start (ctrl+g dismisses):") {
		t.Fatalf("the banner does not name ctrl+g:\n%s", h.screen())
	}
	h.key("f3")
	if !strings.Contains(h.screen(), "ctrl+g restore") {
		t.Fatalf("the theme picker does not name ctrl+g:\n%s", h.screen())
	}
	h.key("ctrl+g")
	if strings.Contains(h.screen(), "ctrl+g restore") {
		t.Fatalf("ctrl+g did not close the picker:\n%s", h.screen())
	}
	h.key("ctrl+g")
	if strings.Contains(h.screen(), "problems at start") {
		t.Fatalf("ctrl+g did not dismiss the banner:\n%s", h.screen())
	}
}
