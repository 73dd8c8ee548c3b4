package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/config"
)

// configFrom loads a config file with the given text, as parley would.
func configFrom(t *testing.T, text string) *config.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Env{Getenv: func(k string) string {
		return map[string]string{"PARLEY_CONFIG": path}[k]
	}})
	if err != nil || len(cfg.Warnings) != 0 {
		t.Fatalf("config: %v %v", err, cfg.Warnings)
	}
	return cfg
}

const settingsConfig = `
default_model = "gpt-4o"

[[providers]]
name = "gw"
base_url = "http://127.0.0.1:9/v1"

[[models]]
name = "gpt-4o"
vision = true
params = { temperature = 0.7 }

[[roles]]
name = "reviewer"
system_prompt = "You review code."
params = { max_tokens = 100 }
`

// lastChat is the JSON of the newest chat request.
func lastChat(t *testing.T, h *harness) map[string]any {
	t.Helper()
	reqs := h.srv.RequestsTo("/chat/completions")
	if len(reqs) == 0 {
		t.Fatal("no chat request")
	}
	return reqs[len(reqs)-1].JSON
}

func TestParametersFromConfigSetAndRole(t *testing.T) {
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = configFrom(t, settingsConfig) })
	h.typeText("/set seed 7")
	h.key("enter")
	if !strings.Contains(h.screen(), "seed = 7 for this conversation") {
		t.Fatalf("/set did not say so:\n%s", h.screen())
	}
	h.ask("one", "ok")
	body := lastChat(t, h)
	if body["temperature"] != 0.7 || body["seed"] != float64(7) {
		t.Fatalf("the request carries temperature %v seed %v", body["temperature"], body["seed"])
	}
	if _, ok := body["max_tokens"]; ok {
		t.Fatal("max_tokens sent without the role")
	}

	h.typeText("/role reviewer")
	h.key("enter")
	if !strings.Contains(h.screen(), "◆ reviewer") {
		t.Fatalf("the status line does not show the role:\n%s", h.screen())
	}
	h.typeText("/set temperature 1.2")
	h.key("enter")
	h.ask("two", "ok")
	body = lastChat(t, h)
	msgs := h.srv.RequestsTo("/chat/completions")[1].Chat.Messages
	if msgs[0].Role != "system" || msgs[0].Content.Text != "You review code." {
		t.Fatalf("the role's system prompt is not first: %+v", msgs[0])
	}
	if body["max_tokens"] != float64(100) || body["temperature"] != 1.2 || body["seed"] != float64(7) {
		t.Fatalf("the request carries %v", body)
	}

	h.typeText("/set")
	h.key("enter")
	flat := strings.Join(strings.Fields(h.screen()), " ")
	for _, want := range []string{"max_tokens = 100 (role reviewer)", "seed = 7", "temperature = 1.2"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("/set alone does not list %q:\n%s", want, h.screen())
		}
	}
	h.typeText("/set temperature 5")
	h.key("enter")
	if !strings.Contains(strings.Join(strings.Fields(h.screen()), " "), "temperature") {
		t.Fatalf("an out-of-range value is not refused by name:\n%s", h.screen())
	}
	if v, _ := h.eng.Conv().Params().Value("temperature"); v != "1.2" {
		t.Fatalf("a refused value changed the parameter to %q", v)
	}
	// The refused line stays to be corrected.
	if h.draft() != "/set temperature 5" {
		t.Fatalf("the refused line is not kept: %q", h.draft())
	}
	h.clearDraft()
	h.typeText("/set temperature --clear")
	h.key("enter")
	h.typeText("/role --clear")
	h.key("enter")
	h.ask("three", "ok")
	body = lastChat(t, h)
	if body["temperature"] != 0.7 || body["max_tokens"] != nil {
		t.Fatalf("after clearing, the request carries %v", body)
	}
	if msgs := h.srv.RequestsTo("/chat/completions")[2].Chat.Messages; msgs[0].Role == "system" {
		t.Fatalf("the role's system prompt stayed: %+v", msgs[0])
	}
}

func TestUnknownRoleIsRefusedByName(t *testing.T) {
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = configFrom(t, settingsConfig) })
	h.typeText("/role reviewr")
	h.key("enter")
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(flat, `there is no role "reviewr"; did you mean reviewer?`) {
		t.Fatalf("refusal:\n%s", h.screen())
	}
	if h.eng.Conv().Role() != "" {
		t.Fatalf("role %q set", h.eng.Conv().Role())
	}
}

func TestRunRoleStartsEveryNewConversation(t *testing.T) {
	h := newHarness(t, 120, 30, func(o *Options) {
		o.Config = configFrom(t, settingsConfig)
		o.Role = "reviewer"
	})
	h.ask("q", "a")
	if msgs := h.srv.RequestsTo("/chat/completions")[0].Chat.Messages; msgs[0].Content.Text != "You review code." {
		t.Fatalf("--role's prompt is not sent: %+v", msgs)
	}
	h.m.openConversation(h.eng.Fresh(), 0)
	if h.eng.Conv().Role() != "reviewer" {
		t.Fatal("a new conversation lost --role")
	}
}

func TestSessionKeepsRoleAndParameters(t *testing.T) {
	st := openStore(t)
	cfg := configFrom(t, settingsConfig)
	h := newHarness(t, 120, 30, withHistory(History{Store: st}), func(o *Options) { o.Config = cfg })
	h.typeText("/role reviewer")
	h.key("enter")
	h.typeText("/set seed 3")
	h.key("enter")
	h.ask("keep these", "kept")
	flush(t, h)
	id := h.eng.Conv().ID()
	again := newHarness(t, 120, 30, withHistory(History{Store: st, SessionID: id}), func(o *Options) { o.Config = cfg })
	again.run(again.m.openSession(id, 0))
	again.wait("the session", func() bool { return again.eng.Conv().ID() == id && again.opening() == "" })
	if again.eng.Conv().Role() != "reviewer" {
		t.Fatalf("role %q after reopening", again.eng.Conv().Role())
	}
	if v, _ := again.eng.Conv().Params().Value("seed"); v != "3" {
		t.Fatalf("seed %q after reopening", v)
	}
	again.srv.Enqueue(apitest.Reply{Text: "again"})
	again.typeText("more")
	again.key("enter")
	again.wait("reply", func() bool { return !again.streaming() })
	if body := lastChat(t, again); body["seed"] != float64(3) || body["max_tokens"] != float64(100) {
		t.Fatalf("the reopened session's request carries %v", body)
	}
}

// A gateway's refusal of a parameter says which and how to stop sending it.
func TestRefusedParameterSaysHowToClearIt(t *testing.T) {
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = configFrom(t, settingsConfig) })
	h.typeText("/set seed 9")
	h.key("enter")
	h.srv.Enqueue(apitest.Reply{Status: 400, ErrorCode: "unsupported_parameter", ErrorMessage: "Unsupported parameter: 'seed' is not supported with this model."})
	h.typeText("hi")
	h.key("enter")
	h.wait("the refusal", func() bool { return !h.streaming() })
	h.quiet()
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(flat, "seed = 9 (from /set in this chat)") || !strings.Contains(flat, "/set seed --clear") {
		t.Fatalf("the refusal does not say how to clear the parameter:\n%s", h.screen())
	}
}

// /role completes from the roles of the config: the list shows the names
// that fit what is typed, and tab completes one.
func TestRoleCompletesTheConfiguredNames(t *testing.T) {
	cfg := configFrom(t, settingsConfig+`
[[roles]]
name = "researcher"
system_prompt = "You dig."

[[roles]]
name = "poet"
system_prompt = "You rhyme."
`)
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = cfg })
	h.typeText("/role re")
	h.wait("the role names", func() bool {
		scr := h.screen()
		return strings.Contains(scr, "reviewer") && strings.Contains(scr, "researcher")
	})
	if scr := h.screen(); strings.Contains(scr, "poet") {
		t.Fatalf("a role that does not fit \"re\" is offered:\n%s", scr)
	}
	h.typeText("v")
	h.wait("one name left", func() bool { return !strings.Contains(h.screen(), "researcher") })
	h.key("tab")
	h.wait("the completed name", func() bool { return strings.TrimSpace(h.draft()) == "/role reviewer" })
	h.key("enter")
	h.wait("the role", func() bool { return h.eng.Conv().Role() == "reviewer" })
}
