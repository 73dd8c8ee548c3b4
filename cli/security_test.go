package cli

import (
	"context"
	"strings"
	"testing"

	"parley/api/apitest"
)

const echoedKey = "sk-proj-Zq8XwV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8cB7aZ6yX5w"

// TestVerboseNeverShowsTheKey runs `parley --verbose ask` against a gateway
// that requires the key and echoes it back in a header and in its error
// message, whole and in OpenAI's partly starred form.
func TestVerboseNeverShowsTheKey(t *testing.T) {
	h := newHarness(t)
	h.gw = apitest.New(t, apitest.WithAPIKey(echoedKey))
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	h.env["OPENAI_API_KEY"] = echoedKey
	h.gw.Enqueue(apitest.Reply{Text: "fine", Header: map[string]string{"X-Echo": echoedKey, "X-Request-Id": "req_123"}})
	r := h.run(nil, "--verbose", "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	for _, want := range []string{"> POST " + h.gw.URL() + "/chat/completions", "> Authorization: Bearer [redacted]", "< X-Echo: [redacted]", "< X-Request-Id: req_123", "> User-Agent: parley/" + Version()} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("verbose output lacks %q:\n%s", want, r.stderr)
		}
	}
	assertNoKey(t, r.stdout+r.stderr)

	starred := echoedKey[:12] + strings.Repeat("*", 30) + echoedKey[len(echoedKey)-4:]
	h.gw.Enqueue(apitest.Reply{Status: 401, Header: map[string]string{"X-Echo": echoedKey},
		Body: `{"error":{"message":"Incorrect API key provided: ` + starred + `. Your key ` + echoedKey + ` is revoked.","type":"invalid_request_error","code":"invalid_api_key"}}`})
	r = h.run(nil, "-v", "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 1)
	last := r.stderr[strings.LastIndex(strings.TrimSuffix(r.stderr, "\n"), "\n")+1:]
	if !strings.HasPrefix(last, "parley: The gateway answered 401 Unauthorized: Incorrect API key provided: [redacted]. Your key [redacted] is revoked") ||
		!strings.Contains(last, "check the API key in OPENAI_API_KEY") {
		t.Errorf("last line %q", last)
	}
	assertNoKey(t, r.stdout+r.stderr)
}

func assertNoKey(t *testing.T, s string) {
	t.Helper()
	for _, piece := range []string{echoedKey, echoedKey[8:24], echoedKey[len(echoedKey)-16:], echoedKey[:12] + "***"} {
		if strings.Contains(s, piece) {
			t.Fatalf("output shows the key (%q):\n%s", piece, s)
		}
	}
}

// TestNoKeySaysWhereToSetOne: a gateway that wants a key, and none set.
func TestNoKeySaysWhereToSetOne(t *testing.T) {
	h := newHarness(t)
	delete(h.env, "OPENAI_API_KEY")
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "401") || !strings.Contains(r.stderr, "no API key was sent: set OPENAI_API_KEY") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// TestAPanicIsOneSentenceWithoutTheKey: a bug that panics with the key in
// its value prints one masked sentence, exit 1, not a Go trace.
func TestAPanicIsOneSentenceWithoutTheKey(t *testing.T) {
	h := newHarness(t)
	h.env["OPENAI_API_KEY"] = echoedKey
	h.stdoutTTY = true
	var out, errb strings.Builder
	code := Main(context.Background(), nil, Env{
		Stdout: &out, Stderr: &errb, StdinIsTerminal: true, StdoutIsTerminal: true,
		Getenv: func(k string) string { return h.env[k] }, HomeDir: h.home,
		RunTUI: func(context.Context, TUIRequest) error { panic("boom with " + echoedKey) },
	})
	if code != ExitFailure {
		t.Fatalf("exit status %d", code)
	}
	if got := errb.String(); !strings.HasPrefix(got, "parley: Internal error (boom with [redacted]); this is a bug in parley") || strings.Count(got, "\n") != 1 {
		t.Fatalf("stderr %q", got)
	}
	assertNoKey(t, errb.String())

	errb.Reset()
	Main(context.Background(), []string{"--verbose"}, Env{
		Stdout: &out, Stderr: &errb, StdinIsTerminal: true, StdoutIsTerminal: true,
		Getenv: func(k string) string { return h.env[k] }, HomeDir: h.home,
		RunTUI: func(context.Context, TUIRequest) error { panic("boom with " + echoedKey) },
	})
	if !strings.Contains(errb.String(), "goroutine ") {
		t.Fatalf("--verbose shows no trace: %q", errb.String())
	}
	assertNoKey(t, errb.String())
}
