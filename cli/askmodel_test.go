package cli

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

// ask without -m or default_model uses the first chat model in the
// gateway's own order (as README and the setup screen say), not the
// alphabetically first, and passes over an image-only model listed first.
func TestAskPicksTheGatewaysFirstChatModel(t *testing.T) {
	h := newHarness(t)
	h.gw = apitest.New(t, apitest.WithModels(
		apitest.ModelSpec{ID: "dall-e-3", ImageGeneration: true},
		apitest.ModelSpec{ID: "zeta-chat"},
		apitest.ModelSpec{ID: "alpha-chat"},
	))
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	h.writeConfig("history = false\n")
	r := h.run(ptr(""), "ask", "hello")
	r.mustCode(t, 0)
	reqs := h.gw.Requests()
	if len(reqs) == 0 || reqs[len(reqs)-1].Chat == nil || reqs[len(reqs)-1].Chat.Model != "zeta-chat" {
		t.Fatalf("asked the wrong model; requests %+v\nstderr: %s", reqs, r.stderr)
	}
	if !strings.Contains(r.stderr, `using "zeta-chat" from the gateway's list`) {
		t.Fatalf("stderr does not name the model: %q", r.stderr)
	}
}
