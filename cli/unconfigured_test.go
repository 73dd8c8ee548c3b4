package cli

import (
	"strings"
	"testing"
)

// TestNothingConfigured: with no config file, no OPENAI_BASE_URL and no
// OPENAI_API_KEY, ask, image and models say so and point at the setup
// screen and the demo, without sending anything anywhere; the demo works.
// Once something is configured, models does not claim a key from a
// variable that is not set.
func TestNothingConfigured(t *testing.T) {
	h := newHarness(t)
	delete(h.env, "OPENAI_BASE_URL")
	delete(h.env, "OPENAI_API_KEY")
	for _, args := range [][]string{{"ask", "hello"}, {"models"}, {"image", "a kite"}} {
		r := h.run(nil, args...)
		r.mustCode(t, 2)
		if !strings.Contains(r.stderr, "Nothing is configured yet: there is no config file (~/.config/parley/config.toml) and neither OPENAI_BASE_URL nor OPENAI_API_KEY is set") ||
			!strings.Contains(r.stderr, "run parley to set up a gateway") || !strings.Contains(r.stderr, "parley "+args[0]+" --demo") || r.stdout != "" {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	if r := h.run(nil, "ask", "--demo", "--demo-dps", "-1", "-m", "demo-chat", "hello"); r.code != 0 || r.stdout == "" {
		t.Fatalf("the demo: %+v", r)
	}
	// A config file with a provider that names no key (as the first-run
	// setup writes it for a local server): it sends none, as intended.
	h.writeConfig("[[providers]]\nname = \"local\"\nbase_url = \"" + h.gw.URL() + "\"\n")
	r := h.run(nil, "models")
	if !strings.Contains(r.stdout, "provider local: "+h.gw.URL()+" (sends no key; OPENAI_API_KEY gives one when set)") || strings.Contains(r.stdout, "no key: ") {
		t.Fatalf("models: %+v", r)
	}
	if h.gw.RequestCount() != 1 {
		t.Fatalf("%d requests reached the gateway, want only the model list", h.gw.RequestCount())
	}
}
