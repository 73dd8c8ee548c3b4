package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"parley/api/apitest"
)

// --param reaches the request over the config's params; a later --param
// of the same name wins; only what is set is sent.
func TestAskParams(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(`[[models]]
name = "gpt-4o"
params = { temperature = 0.7, max_tokens = 500 }
`)
	r := h.run(nil, "ask", "-m", "gpt-4o", "--param", "temperature=0.2", "--param", "seed=7", "--param", "seed=8", "--param", "stop=###", "q")
	r.mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	c := req.Chat
	if *c.Temperature != 0.2 || *c.MaxTokens != 500 || *c.Seed != 8 || !slices.Equal([]string(c.Stop), []string{"###"}) {
		t.Fatalf("request %s", req.Body)
	}
	for _, k := range []string{"top_p", "presence_penalty", "frequency_penalty", "reasoning_effort"} {
		if _, ok := req.JSON[k]; ok {
			t.Fatalf("%s was sent: %s", k, req.Body)
		}
	}
}

// A bad --param is a usage error naming the parameter and what it takes,
// and nothing is sent.
func TestAskParamRefusals(t *testing.T) {
	h := newHarness(t)
	for args, want := range map[string]string{
		"temperature=3":        "Parley: --param temperature: temperature must be a number from 0 to 2, not 3.",
		"temperature":          `--param takes NAME=VALUE, like --param temperature=0.2, not "temperature".`,
		"temprature=1":         `--param temprature: there is no parameter "temprature"; did you mean temperature?`,
		"max_tokens=-1":        "max_tokens must be a whole number of at least 1, not -1.",
		"reasoning_effort=max": `reasoning_effort must be one of minimal, low, medium or high, not "max".`,
	} {
		r := h.run(nil, "ask", "-m", "gpt-4o", "--param", args, "q")
		r.mustCode(t, 2)
		if !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(want)) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("--param %s: stderr %q, want %q", args, r.stderr, want)
		}
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// A gateway that refuses a parameter says which, and that dropping the
// --param (or the config's entry) stops it.
func TestAskRefusedParamHint(t *testing.T) {
	h := newHarness(t)
	h.gw = apitest.New(t, apitest.WithModels(apitest.ModelSpec{ID: "fixed", RejectParams: []string{"temperature", "top_p"}}))
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	h.writeConfig(`[[models]]
name = "fixed"
params = { top_p = 0.5 }
`)
	r := h.run(nil, "ask", "-m", "fixed", "--param", "temperature=0.2", "q")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "the model refused temperature = 0.2 (from --param); drop --param temperature to send it no more") {
		t.Fatalf("stderr %q", r.stderr)
	}
	r = h.run(nil, "ask", "-m", "fixed", "q")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "the model refused top_p = 0.5 (from model fixed in the config); remove top_p from the params of model fixed in the config to send it no more") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

const rolesConfig = `system_prompt = "You are helpful."

[[models]]
name = "gpt-4o-mini"
params = { temperature = 0.9 }

[[roles]]
name = "reviewer"
system_prompt = "You review code tersely."
model = "gpt-4o-mini"
params = { temperature = 0.1, max_tokens = 200 }
`

// --role sends the role's system prompt, uses its model and its params
// (over the model's), and the session keeps the role for --continue.
func TestAskRole(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(rolesConfig)
	r := h.run(nil, "ask", "--role", "reviewer", "look at this")
	r.mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	c := req.Chat
	if c.Model != "gpt-4o-mini" || c.Messages[0].Role != "system" || c.Messages[0].Content.Text != "You review code tersely." ||
		*c.Temperature != 0.1 || *c.MaxTokens != 200 {
		t.Fatalf("request %s", req.Body)
	}
	// -m and -s win over the role; --param over its params.
	r = h.run(nil, "ask", "--role", "reviewer", "-m", "gpt-4o", "-s", "Be brief.", "--param", "max_tokens=50", "--no-save", "q")
	r.mustCode(t, 0)
	req, _ = h.gw.LastRequest()
	if req.Chat.Model != "gpt-4o" || req.Chat.Messages[0].Content.Text != "Be brief." || *req.Chat.MaxTokens != 50 || *req.Chat.Temperature != 0.1 {
		t.Fatalf("overridden request %s", req.Body)
	}
	// --continue keeps the session's role: its system prompt and params.
	r = h.run(nil, "ask", "--continue", "and now?")
	r.mustCode(t, 0)
	req, _ = h.gw.LastRequest()
	if req.Chat.Model != "gpt-4o-mini" || req.Chat.Messages[0].Content.Text != "You review code tersely." || *req.Chat.MaxTokens != 200 {
		t.Fatalf("continued request %s", req.Body)
	}
	r = h.run(nil, "ask", "--role", "reviwer", "q")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, `--role: there is no role "reviwer"; did you mean reviewer? (roles: reviewer).`) {
		t.Fatalf("unknown role: %q", r.stderr)
	}
}

// The chat's --role is checked and handed to the chat.
func TestChatRole(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(rolesConfig)
	h.stdoutTTY = true
	r := h.run(nil, "--role", "reviewer")
	r.mustCode(t, 0)
	if h.tui == nil || h.tui.Role != "reviewer" {
		t.Fatalf("TUIRequest %+v", h.tui)
	}
	h.tui = nil
	r = h.run(nil, "--role", "nobody")
	r.mustCode(t, 2)
	if h.tui != nil || !strings.Contains(r.stderr, `--role: there is no role "nobody"`) {
		t.Fatalf("unknown role: %q", r.stderr)
	}
}

// The answer alone goes to stdout; the reasoning to stderr, dim, when
// stderr is a terminal, plain with --reasoning, nowhere otherwise.
func TestAskReasoningGoesToStderr(t *testing.T) {
	for _, as := range []string{apitest.ReasoningContent, apitest.ReasoningField, apitest.ReasoningThink} {
		for _, tt := range []struct {
			name       string
			tty, flag  bool
			stream     bool
			wantStderr string
		}{
			{"terminal", true, false, true, "\x1b[2mFirst I think.\nThen I answer.\x1b[22m\n"},
			{"terminal no-stream", true, false, false, "\x1b[2mFirst I think.\nThen I answer.\x1b[22m\n"},
			{"pipe", false, false, true, ""},
			{"pipe --reasoning", false, true, true, "First I think.\nThen I answer.\n"},
		} {
			h := newHarness(t)
			h.stderrTTY = tt.tty
			h.gw.Enqueue(apitest.Reply{Reasoning: "First I think.\nThen I answer.\n", ReasoningAs: as, Text: "The answer.", DeltaRunes: 3})
			args := []string{"ask", "-m", "gpt-4o", "--no-save"}
			if tt.flag {
				args = append(args, "--reasoning")
			}
			if !tt.stream {
				args = append(args, "--no-stream")
			}
			r := h.run(nil, append(args, "q")...)
			r.mustCode(t, 0)
			if r.stdout != "The answer.\n" || r.stderr != tt.wantStderr {
				t.Errorf("%s, %s: stdout %q, stderr %q; want stderr %q", as, tt.name, r.stdout, r.stderr, tt.wantStderr)
			}
		}
	}
}

// Reasoning with terminal escapes is made inert on stderr as the answer
// is on stdout, unless --raw.
func TestAskReasoningIsSanitised(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Reasoning: "evil \x1b]0;title\x07 thought", Text: "ok"})
	r := h.run(nil, "ask", "-m", "gpt-4o", "--no-save", "--reasoning", "q")
	r.mustCode(t, 0)
	if strings.Contains(r.stderr, "\x1b") || !strings.Contains(r.stderr, "thought") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

// The reasoning is kept with the reply in the history, and the next
// question does not send it back.
func TestAskKeepsReasoningAndNeverSendsIt(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Reasoning: "PRIVATE-THOUGHT", Text: "Answer one.", ReasoningAs: apitest.ReasoningThink})
	h.run(nil, "ask", "-m", "gpt-4o", "one").mustCode(t, 0)
	h.run(nil, "ask", "--continue", "two").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	if strings.Contains(string(req.Body), "PRIVATE-THOUGHT") || req.Chat.Messages[1].Content.Text != "Answer one." {
		t.Fatalf("second request %s", req.Body)
	}
	list := h.run(nil, "sessions", "list", "--json")
	list.mustCode(t, 0)
	id := regexp.MustCompile(`"id": "([0-9a-f]{32})"`).FindStringSubmatch(list.stdout)
	if id == nil {
		t.Fatalf("no session id in %s", list.stdout)
	}
	r := h.run(nil, "sessions", "show", "--json", id[1])
	r.mustCode(t, 0)
	if !strings.Contains(r.stdout, `"reasoning": "PRIVATE-THOUGHT"`) || !strings.Contains(r.stdout, `"text": "Answer one."`) {
		t.Fatalf("export lacks the reasoning: %s", r.stdout)
	}
	r = h.run(nil, "sessions", "show", id[1])
	r.mustCode(t, 0)
	if !strings.Contains(r.stdout, "[thinking]\n│ PRIVATE-THOUGHT\nAnswer one.\n") {
		t.Fatalf("transcript %s", r.stdout)
	}
}

// -a takes text files: they reach the request with their names, also for
// a model without vision; binary files and files over the caps are
// refused with a sentence and exit 2.
func TestAskTextFiles(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	code := filepath.Join(dir, "main.go")
	os.WriteFile(code, []byte("package main\n\nfunc main() {}\n"), 0o644)
	log := filepath.Join(dir, "build.log")
	os.WriteFile(log, []byte("ok\nFAIL x\n"), 0o644)
	r := h.run(nil, "ask", "-m", "llama3", "--no-save", "-a", code, "-a", log, "why?")
	r.mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	parts := req.Chat.Messages[len(req.Chat.Messages)-1].Content.Parts
	if len(parts) != 3 || parts[0].Text != "why?" || !strings.HasPrefix(parts[1].Text, "File: main.go\n\n```go\npackage main") ||
		!strings.HasPrefix(parts[2].Text, "File: build.log\n\n```text\nok\nFAIL x\n```") {
		t.Fatalf("parts %+v", parts)
	}

	// Kept in the history, the file shows in the transcript.
	h.run(nil, "ask", "-m", "gpt-4o", "-a", code, "and this?").mustCode(t, 0)
	list := h.run(nil, "sessions", "list", "--json")
	id := regexp.MustCompile(`"id": "([0-9a-f]{32})"`).FindStringSubmatch(list.stdout)
	if id == nil {
		t.Fatalf("no session id in %s", list.stdout)
	}
	if r := h.run(nil, "sessions", "show", id[1]); !strings.Contains(r.stdout, "and this?\n[file main.go: 3 lines, 29 B]\n") {
		t.Fatalf("transcript %s", r.stdout)
	}

	bin := filepath.Join(dir, "tool")
	os.WriteFile(bin, []byte("\x7fELF\x02\x01\x01\x00\x00"), 0o755)
	big := filepath.Join(dir, "big.log")
	os.WriteFile(big, []byte(strings.Repeat("x", 300_000)), 0o644)
	h.writeConfig("attach_max_text_total = \"1KB\"\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", bin}, `it is a program, neither a PNG, JPEG, WEBP or GIF image nor a text file`},
		{[]string{"-a", big}, `it is a text file of 300 KB, more than parley sends of one (256 KB, attach_max_text_bytes in the config)`},
		{manyTimes(code, 35), `the 35 text files of this message come to 1,015 bytes, more than one message sends (1,000 bytes, attach_max_text_total in the config)`},
	} {
		before := h.gw.RequestCount()
		r := h.run(nil, append(append([]string{"ask", "-m", "gpt-4o", "--no-save"}, tt.args...), "q")...)
		r.mustCode(t, 2)
		if !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(tt.want)) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: stderr %q, want %q", tt.args[:2], r.stderr, tt.want)
		}
		if h.gw.RequestCount() != before {
			t.Errorf("%v: a request was sent", tt.args)
		}
	}
}

// manyTimes repeats -a path n times.
func manyTimes(path string, n int) []string {
	var args []string
	for range n {
		args = append(args, "-a", path)
	}
	return args
}
