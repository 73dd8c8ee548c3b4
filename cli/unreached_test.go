package cli

import (
	"context"
	"net"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/conversation"
)

// TestAskThatNeverReachedAModelIsNotKept: a question answered with a 401,
// or sent to a host that does not listen, leaves no session; one that
// continues a session keeps its failed turn in it.
func TestAskThatNeverReachedAModelIsNotKept(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Status: 401, ErrorMessage: "Incorrect API key provided"})
	h.run(nil, "ask", "-m", "gpt-4o", "first question").mustCode(t, 1)
	if list := h.sessions(); len(list) != 0 {
		t.Fatalf("after a 401: sessions %+v", list)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	h.env["OPENAI_BASE_URL"] = closed
	h.writeConfig("max_retries = 0\n")
	h.run(nil, "ask", "-m", "gpt-4o", "to nowhere").mustCode(t, 1)
	if list := h.sessions(); len(list) != 0 {
		t.Fatalf("after a refused connection: sessions %+v", list)
	}
	h.env["OPENAI_BASE_URL"] = h.gw.URL()
	h.gw.Enqueue(apitest.Reply{Text: "Lima."})
	h.run(nil, "ask", "-m", "gpt-4o", "capital of Peru?").mustCode(t, 0)
	h.gw.Enqueue(apitest.Reply{Status: 401, ErrorMessage: "Incorrect API key provided"})
	h.run(nil, "ask", "--continue", "and Chile?").mustCode(t, 1)
	list := h.sessions()
	if len(list) != 1 || list[0].Messages != 4 {
		t.Fatalf("a continued session: %+v", list)
	}
	got, _ := h.store().Load(context.Background(), list[0].ID)
	if m := got.Snapshot.Messages[3]; m.State != conversation.StateFailed {
		t.Fatalf("the failed turn %+v", m)
	}
}

// TestTypedKeyIsNotStored: an API key pasted into a question goes to the
// gateway as typed but is stored as [redacted], in the session and in
// the search index; the keys of every provider count, also one from a
// variable named by api_key_env.
func TestTypedKeyIsNotStored(t *testing.T) {
	h := newHarness(t)
	other := "sk-other-provider-0123456789"
	h.env["OTHER_KEY"] = other
	h.writeConfig(`default_model = "gpt-4o"
[[providers]]
name = "gw"
base_url = "` + h.gw.URL() + `"
[[providers]]
name = "other"
base_url = "http://127.0.0.1:9/v1"
api_key_env = "OTHER_KEY"
`)
	h.gw.Enqueue(apitest.Reply{Text: "That looks like a key."})
	question := "why does " + apitest.DefaultAPIKey + " fail, and " + other + "?"
	h.run(nil, "ask", question).mustCode(t, 0)
	if req, _ := h.gw.LastRequest(); req.Chat.Messages[0].Content.PlainText() != question {
		t.Fatalf("sent %q", req.Chat.Messages[0].Content.PlainText())
	}
	list := h.sessions()
	got, _ := h.store().Load(context.Background(), list[0].ID)
	stored := got.Snapshot.Messages[0].Text + got.Title
	if strings.Contains(stored, apitest.DefaultAPIKey) || strings.Contains(stored, other) || strings.Count(stored, "[redacted]") != 4 {
		t.Fatalf("stored %q", stored)
	}
	r := h.run(nil, "sessions", "search", "--json", "fail")
	if strings.Contains(r.stdout, other) || !strings.Contains(r.stdout, "[redacted]") {
		t.Fatalf("search: %s", r.stdout)
	}
}
