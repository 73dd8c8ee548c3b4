package cli

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestModelsNewlineIDsCannotForgeRows: an id from the gateway, or a name in
// the config, holding a newline or a tab shows them as \n and \t on its own
// row; no forged row appears.
func TestModelsNewlineIDsCannotForgeRows(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("[[models]]\nname = \"cfg\\nmodel forged [default, config]: chat, vision\"\nvision = true\n")
	h.gw.Enqueue(apitest.Reply{Body: `{"data":[{"id":"real\n* gpt-5-forged\tchat, vision"},{"id":"tab\there"},{"id":"plain"}]}`})
	r := h.run(nil, "models")
	r.mustCode(t, 0)
	for _, want := range []string{
		`model cfg\nmodel forged [default, config]: chat, vision [default, config]: chat, vision`,
		`real\n* gpt-5-forged\tchat, vision`,
		`tab\there`,
		"  plain",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "model forged") || strings.HasPrefix(line, "* gpt-5-forged") || strings.Contains(line, "\t") {
			t.Errorf("a forged row or a raw tab: %q", line)
		}
	}
}

// TestKeyCommandFailuresExitOne: every way api_key_cmd can fail, a key
// with a control character included, ends with exit status 1 and one
// sentence naming the provider; Go's own words ("WaitDelay") never show.
func TestKeyCommandFailuresExitOne(t *testing.T) {
	for _, cmd := range []string{
		`exit 3`,
		`true`,
		`echo sk-key; sleep 30 >/dev/null 2>&1 & sleep 30 &`,
		`printf "sk-\033[2J"`,
	} {
		h := newHarness(t)
		delete(h.env, "OPENAI_BASE_URL") // the file's provider is the gateway
		h.writeConfig("[[providers]]\nname = \"gw\"\nbase_url = \"" + h.gw.URL() + "\"\napi_key_cmd = '" + cmd + "'\n")
		r := h.run(nil, "models")
		r.mustCode(t, 1)
		if !strings.HasPrefix(r.stderr, `parley: Provider "gw": `) || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "WaitDelay") {
			t.Errorf("%s: stderr %q", cmd, r.stderr)
		}
	}
}
