package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestOpenAIBaseURLIgnoredIsSaid: with providers in the file,
// OPENAI_BASE_URL is not used; ask says so on stderr and the chat gets
// the same sentence for its banner (and nothing on stderr, where the full
// screen would hide it).
func TestOpenAIBaseURLIgnoredIsSaid(t *testing.T) {
	h := newHarness(t)
	h.env["OPENAI_BASE_URL"] = "https://user:secret-pass@other.example/v1?token=abc"
	h.env["GW_KEY"] = apitest.DefaultAPIKey
	h.writeConfig(fmt.Sprintf("default_model = \"gpt-4o\"\n[[providers]]\nname = \"local\"\nbase_url = %q\napi_key_env = \"GW_KEY\"\n", h.gw.URL()))

	r := h.run(nil, "ask", "hi")
	r.mustCode(t, 0)
	want := "OPENAI_BASE_URL (https://other.example/v1) is ignored because ~/.config/parley/config.toml defines [[providers]]; parley uses provider \"local\" at " + h.gw.URL()
	if !strings.Contains(r.stderr, "parley: Warning: "+want) {
		t.Fatalf("stderr %q lacks %q", r.stderr, want)
	}
	if strings.Contains(r.stderr, "secret-pass") || strings.Contains(r.stderr, "token=abc") {
		t.Errorf("the warning shows the URL's credentials: %q", r.stderr)
	}
	if r.stdout != "You said: hi\n" {
		t.Errorf("stdout %q", r.stdout)
	}

	h.stdoutTTY = true
	r = h.run(nil)
	r.mustCode(t, 0)
	if r.stderr != "" {
		t.Errorf("the chat printed on stderr: %q", r.stderr)
	}
	if len(h.tui.Warnings) != 1 || !strings.HasPrefix(h.tui.Warnings[0], want) || !strings.HasSuffix(h.tui.Warnings[0], ".") {
		t.Errorf("chat warnings = %q", h.tui.Warnings)
	}
}

// TestMissingKeyIsSaid: a provider whose api_key_env is not set, and a
// remote gateway without OPENAI_API_KEY, are warned about; a local
// gateway without a key, or nothing configured at all, is not.
func TestMissingKeyIsSaid(t *testing.T) {
	h := newHarness(t)
	delete(h.env, "OPENAI_BASE_URL")
	delete(h.env, "OPENAI_API_KEY")
	h.stdoutTTY = true
	h.writeConfig(`default_model = "gpt-4o"
unknown_key = 1

[[providers]]
name = "local"
base_url = "http://127.0.0.1:11434/v1"

[[providers]]
name = "work"
base_url = "https://gateway.work.example/v1"
api_key_env = "WORK_KEY"

[[providers]]
name = "hosted"
base_url = "https://api.example.com/v1"

[[providers]]
name = "vault"
base_url = "https://vault.example/v1"
api_key_cmd = "exit 1"
`)
	r := h.run(nil)
	r.mustCode(t, 0)
	ws := strings.Join(h.tui.Warnings, "\n")
	for _, want := range []string{
		"unknown_key",
		`Provider "work" has no key: WORK_KEY (its api_key_env) is not set, so its requests will fail; export WORK_KEY, or change api_key_env in ~/.config/parley/config.toml.`,
		`Provider "hosted" has no key: OPENAI_API_KEY is not set, and the gateway at https://api.example.com/v1 will likely refuse requests without one; export OPENAI_API_KEY, or set api_key_env or api_key_cmd for it in ~/.config/parley/config.toml.`,
	} {
		if !strings.Contains(ws, want) {
			t.Errorf("warnings lack %q:\n%s", want, ws)
		}
	}
	for _, not := range []string{`"local"`, `"vault"`} {
		if strings.Contains(ws, not) {
			t.Errorf("warned about provider %s:\n%s", not, ws)
		}
	}
	if len(h.tui.Warnings) != 3 {
		t.Errorf("%d warnings, want 3:\n%s", len(h.tui.Warnings), ws)
	}

	// Nothing configured: the setup screen explains, no warning.
	h2 := newHarness(t)
	delete(h2.env, "OPENAI_BASE_URL")
	delete(h2.env, "OPENAI_API_KEY")
	h2.stdoutTTY = true
	h2.run(nil).mustCode(t, 0)
	if len(h2.tui.Warnings) != 0 {
		t.Errorf("warnings with nothing configured: %q", h2.tui.Warnings)
	}

	// The environment's gateway alone, remote and without a key.
	h3 := newHarness(t)
	h3.env["OPENAI_BASE_URL"] = "https://api.example.com/v1"
	delete(h3.env, "OPENAI_API_KEY")
	h3.stdoutTTY = true
	h3.run(nil).mustCode(t, 0)
	if len(h3.tui.Warnings) != 1 || !strings.HasSuffix(h3.tui.Warnings[0], "export OPENAI_API_KEY.") {
		t.Errorf("warnings = %q", h3.tui.Warnings)
	}
}

// TestWarningsAreInert: what the chat gets is made inert like stderr.
func TestWarningsAreInert(t *testing.T) {
	h := newHarness(t)
	h.env["OPENAI_BASE_URL"] = "https://evil.example/v1\x1b]0;pwned\x07"
	h.writeConfig(fmt.Sprintf("[[providers]]\nname = \"local\"\nbase_url = %q\n", h.gw.URL()))
	h.stdoutTTY = true
	r := runChat(t, h, func(context.Context, TUIRequest) error { return nil })
	r.mustCode(t, 0)
	for _, w := range h.tui.Warnings {
		if strings.ContainsAny(w, "\x1b\x07") {
			t.Errorf("warning carries control characters: %q", w)
		}
	}
	if len(h.tui.Warnings) == 0 {
		t.Error("no warning about the ignored OPENAI_BASE_URL")
	}
}
