package cli

import (
	"strings"
	"testing"
)

// ask with a provider whose api_key_env is unset says so once: the error
// that stops it, not a warning saying the same first.
func TestAskUnsetKeyVariableSaidOnce(t *testing.T) {
	h := newHarness(t)
	delete(h.env, "OPENAI_BASE_URL")
	h.writeConfig("[[providers]]\nname = \"work\"\nbase_url = \"" + h.gw.URL() + "\"\napi_key_env = \"WORK_KEY\"\n")
	r := h.run(nil, "ask", "-m", "gpt-4o", "hi")
	r.mustCode(t, 1)
	if n := strings.Count(r.stderr, "WORK_KEY (its api_key_env) is not set"); n != 1 {
		t.Fatalf("said %d times:\n%s", n, r.stderr)
	}
	if h.gw.RequestCount() != 0 {
		t.Fatal("a request went out without the key")
	}
}
