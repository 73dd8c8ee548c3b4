package cli

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// compareHarness is a harness whose gateway answers each model with its
// own text, llama3 after the others (or with HTTP 500 when failing).
func compareHarness(t *testing.T, failing bool) *harness {
	h := newHarness(t)
	h.gw = apitest.New(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		switch {
		case c.Model.ID == "llama3" && failing:
			return apitest.Reply{Status: 500, Body: `{"error":{"message":"llama fell over","type":"server_error"}}`}
		case c.Model.ID == "llama3":
			return apitest.Reply{Text: "llama says hi", DeltaRunes: 2, Interval: 15 * time.Millisecond}
		}
		return apitest.Reply{Text: c.Model.ID + " says hi", DeltaRunes: 4}
	}))
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	return h
}

// ask -m A -m B prints both answers under headers, in the order they
// finish; --ordered in the order given; both questions go out the same.
func TestAskCompareprintsEachAnswerUnderItsHeader(t *testing.T) {
	h := compareHarness(t, false)
	r := h.run(nil, "ask", "-m", "llama3", "-m", "gpt-4o", "hello?")
	r.mustCode(t, 0)
	want := "## gpt-4o\n\ngpt-4o says hi\n\n## llama3\n\nllama says hi\n"
	if r.stdout != want {
		t.Fatalf("stdout = %q, want %q", r.stdout, want)
	}
	reqs := h.gw.RequestsTo("/chat/completions")
	if len(reqs) != 2 || reqs[0].Chat.Model == reqs[1].Chat.Model ||
		reqs[0].Chat.Messages[0].Content.PlainText() != "hello?" || reqs[1].Chat.Messages[0].Content.PlainText() != "hello?" {
		t.Fatalf("requests %d: %s / %s", len(reqs), reqs[0].Body, reqs[1].Body)
	}

	r = h.run(nil, "ask", "--compare", "llama3,gpt-4o", "--ordered", "--no-save", "hello?")
	r.mustCode(t, 0)
	if want := "## llama3\n\nllama says hi\n\n## gpt-4o\n\ngpt-4o says hi\n"; r.stdout != want {
		t.Fatalf("ordered stdout = %q, want %q", r.stdout, want)
	}
}

// One model failing prints the others, says its error on stderr only
// (no empty section on stdout, its id spelled as given), and exits 1; the
// session keeps both answers as alternatives.
func TestAskCompareFailureExitsNonZero(t *testing.T) {
	h := compareHarness(t, true)
	r := h.run(nil, "ask", "-m", "gpt-4o", "-m", "llama3", "hello?")
	r.mustCode(t, 1)
	if r.stdout != "## gpt-4o\n\ngpt-4o says hi\n" {
		t.Fatalf("stdout = %q, want only gpt-4o's section", r.stdout)
	}
	if !strings.Contains(r.stderr, "parley: llama3 failed: ") || !strings.Contains(r.stderr, "llama fell over") || !strings.Contains(r.stderr, "1 of 2 models failed (llama3)") {
		t.Fatalf("stderr = %q", r.stderr)
	}
	list := h.run(nil, "sessions", "list")
	id := regexp.MustCompile(`[0-9a-f]{32}`).FindString(list.stdout)
	exp := h.run(nil, "sessions", "export", "--all-branches", id)
	exp.mustCode(t, 0)
	if !strings.Contains(exp.stdout, "gpt-4o says hi") || !strings.Contains(exp.stdout, "llama fell over") {
		t.Fatalf("export = %q", exp.stdout)
	}
}

// The session's model is the model of the reply its active branch ends
// at, the first named, even when another model's answer ends after it:
// sessions show says it, and ask --continue asks it.
func TestAskCompareSessionModelIsTheActiveReplys(t *testing.T) {
	h := compareHarness(t, false) // llama3 ends after gpt-4o
	h.run(nil, "ask", "--compare", "gpt-4o,llama3", "second compare").mustCode(t, 0)
	id := regexp.MustCompile(`[0-9a-f]{32}`).FindString(h.run(nil, "sessions", "list").stdout)
	show := h.run(nil, "sessions", "show", id)
	show.mustCode(t, 0)
	header := regexp.MustCompile(`(?m)^session .*$`).FindString(show.stdout)
	if !strings.Contains(header, " · gpt-4o · ") || !strings.Contains(show.stdout, "── gpt-4o · ") {
		t.Fatalf("show:\n%s", show.stdout)
	}
	h.run(nil, "ask", "--continue", "and then?").mustCode(t, 0)
	reqs := h.gw.RequestsTo("/chat/completions")
	last := reqs[len(reqs)-1].Chat
	if last.Model != "gpt-4o" || len(last.Messages) != 3 || last.Messages[1].Content.PlainText() != "gpt-4o says hi" {
		t.Fatalf("the continued question went to %s with %d messages: %s", last.Model, len(last.Messages), reqs[len(reqs)-1].Body)
	}
}

// Bad model lists are refused before anything is sent.
func TestAskCompareRefusals(t *testing.T) {
	h := compareHarness(t, false)
	for _, args := range [][]string{
		{"-m", "gpt-4o", "-m", "gpt-4o"},
		{"--compare", "gpt-4o"},
		{"-m", "a", "-m", "b", "-m", "c", "-m", "d", "-m", "e"},
		{"-m", "gpt-4o", "-m", "llama3", "--tools"},
		{"-m", "gpt-4o", "-m", "llama3", "--allow-tool", "fs"},
	} {
		r := h.run(nil, append(append([]string{"ask"}, args...), "q")...)
		r.mustCode(t, 2)
		if strings.Contains(strings.Join(args, " "), "tool") && !strings.Contains(r.stderr, "tool") {
			t.Errorf("%v: stderr %q does not say what is wrong with the tool flags", args, r.stderr)
		}
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// Prices of the config give each session a cost in sessions list and
// sessions show (every branch counted); a session whose models have no
// price shows none, not zero.
func TestSessionCosts(t *testing.T) {
	h := compareHarness(t, false)
	h.writeConfig("[[models]]\nname = \"gpt-4o\"\ninput_price = 1000\noutput_price = 1000\n\n[[models]]\nname = \"gpt-4o-mini\"\ninput_price = 500\noutput_price = 500\n")
	h.run(nil, "ask", "-m", "gpt-4o", "-m", "gpt-4o-mini", "priced").mustCode(t, 0)
	h.now = h.now.Add(time.Minute)
	h.run(nil, "ask", "-m", "llama3", "not priced").mustCode(t, 0)
	reqs := h.gw.RequestsTo("/chat/completions")
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := h.run(nil, "sessions", "list")
	r.mustCode(t, 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("list:\n%s", r.stdout)
	}
	// The fake reports the usage of both priced models: prompt and
	// completion tokens at $1000 and $500 a million.
	if f := strings.Fields(lines[0]); f[4] != "-" || !strings.Contains(lines[0], "not priced") {
		t.Fatalf("the unpriced session shows a cost: %q", lines[0])
	}
	f := strings.Fields(lines[1])
	if !strings.HasPrefix(f[4], "$") || f[4] == "$0.00" {
		t.Fatalf("the priced session shows no cost: %q", lines[1])
	}
	show := h.run(nil, "sessions", "show", f[0])
	show.mustCode(t, 0)
	if !strings.Contains(show.stdout, "cost "+f[4]) {
		t.Fatalf("show does not say the cost %s:\n%s", f[4], show.stdout)
	}
	js := h.run(nil, "sessions", "list", "--json")
	if !strings.Contains(js.stdout, `"cost":`) || strings.Count(js.stdout, `"cost":`) != 1 {
		t.Fatalf("json: %s", js.stdout)
	}
}

// A model whose id is a plain lower-case word keeps its spelling when a
// message opens with it: "nosuchmodel failed", not "Nosuchmodel".
func TestAskCompareFailedModelKeepsItsCase(t *testing.T) {
	h := newHarness(t)
	h.gw = apitest.New(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		if c.Model.ID == "nosuchmodel" {
			return apitest.Reply{Status: 404, Body: `{"error":{"message":"no such model","type":"invalid_request_error"}}`}
		}
		return apitest.Reply{Text: "hi"}
	}))
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	r := h.run(nil, "ask", "--no-save", "--compare", "gpt-4o,nosuchmodel", "x")
	r.mustCode(t, 1)
	if r.stdout != "## gpt-4o\n\nhi\n" {
		t.Fatalf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "parley: nosuchmodel failed: ") {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

// sessions search numbers a message by its place on its branch, as
// sessions show does, not by the store's id that counts every branch.
func TestSessionsSearchNumbersMessagesAsShowDoes(t *testing.T) {
	h := compareHarness(t, false)
	h.run(nil, "ask", "--compare", "gpt-4o,llama3", "tea one").mustCode(t, 0)
	h.run(nil, "ask", "--continue", "tea two").mustCode(t, 0)
	id := regexp.MustCompile(`[0-9a-f]{32}`).FindString(h.run(nil, "sessions", "list").stdout)
	show := h.run(nil, "sessions", "show", id)
	if !strings.Contains(show.stdout, "── You · 2026-11-21 14:30\ntea two") || !strings.Contains(show.stdout, "message 2, alternative 1 of 2") {
		t.Fatalf("show:\n%s", show.stdout)
	}
	r := h.run(nil, "sessions", "search", "tea")
	r.mustCode(t, 0)
	if want := id + "  3  tea two\n" + id + "  1  tea one\n"; r.stdout != want {
		t.Fatalf("search = %q, want %q", r.stdout, want)
	}
	r = h.run(nil, "sessions", "search", "llama")
	if want := id + "  2  llama says hi\n"; r.stdout != want {
		t.Fatalf("search in the other branch = %q, want %q", r.stdout, want)
	}
	r = h.run(nil, "sessions", "search", "--json", "tea", "two")
	if !strings.Contains(r.stdout, `"message_id": 4`) || !strings.Contains(r.stdout, `"place": 3`) {
		t.Fatalf("search --json = %s", r.stdout)
	}
}
