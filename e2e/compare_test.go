package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// compareGateway answers each model with its own text: llava thinks
// first, llama3 fails with HTTP 500 when failing is set.
func compareGateway(t *testing.T, failing bool) *apitest.Server {
	return apitest.New(t, apitest.WithResponder(func(c apitest.Call) apitest.Reply {
		if len(c.Chat.Messages) > 1 {
			return apitest.Reply{} // a follow-up: "You said: …"
		}
		switch c.Model.ID {
		case "llama3":
			if failing {
				return apitest.Reply{Status: 500, Body: `{"error":{"message":"the llama crashed","type":"server_error"}}`}
			}
			return apitest.Reply{Text: "Llama answers: delta."}
		case "llava":
			return apitest.Reply{Text: "Llava answers: gamma.", Reasoning: "pondering the leaves", DeltaRunes: 4}
		case "gpt-4o-mini":
			return apitest.Reply{Text: "Mini answers: beta.", DeltaRunes: 4}
		}
		return apitest.Reply{Text: "Big answers: alpha.", DeltaRunes: 4}
	}))
}

// TestCompareThreeModelsSideBySide is issue 24 in the real binary: at 200
// columns /compare of three models (one thinking) shows three columns,
// the gateway gets three requests with the same messages and different
// models, picking the second sends its text as the assistant message of
// the next request, reopening shows it as ‹ 2/3 ›, and the export of
// every branch holds all three answers.
func TestCompareThreeModelsSideBySide(t *testing.T) {
	t.Parallel()
	gw := compareGateway(t, false)
	home := t.TempDir()
	tm := startParley(t, launch{Width: 200, Height: 60, Gateway: gw, Config: chatConfig, home: home})
	tm.waitText(composerReady)
	tm.send("/compare gpt-4o gpt-4o-mini llava")
	tm.waitText("compare gpt-4o · gpt-4o-mini · llava")
	tm.send("Which tea?")
	s := tm.waitText("1 · gpt-4o", "2 · gpt-4o-mini", "3 · llava", "Big answers: alpha.", "Mini answers: beta.", "Llava answers: gamma.", "Thought for", "pick")
	// Side by side: the three answers share a row.
	row := ""
	for _, l := range lines(s) {
		if strings.Contains(l, "Big answers") {
			row = l
		}
	}
	if !strings.Contains(row, "Mini answers") || !strings.Contains(row, "Llava answers") {
		t.Fatalf("the answers are not side by side:\n%s", frame(s))
	}
	reqs := chatRequests(gw)
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	models := map[string]bool{}
	first, _ := json.Marshal(reqs[0].Chat.Messages)
	for _, r := range reqs {
		models[r.Chat.Model] = true
		if b, _ := json.Marshal(r.Chat.Messages); string(b) != string(first) {
			t.Fatalf("the requests' messages differ: %s and %s", first, b)
		}
	}
	if len(models) != 3 {
		t.Fatalf("models asked: %v", models)
	}

	tm.keys("2")
	tm.waitText("going on from gpt-4o-mini", "Mini answers: beta.", "‹ 2/3 ›")
	tm.send("and why?")
	waitReply(tm, "You said: and why?")
	var sent []string
	for _, msg := range chatRequests(gw)[3].Chat.Messages {
		sent = append(sent, msg.Role+": "+msg.Content.Text)
	}
	if want := "user: Which tea?|assistant: Mini answers: beta.|user: and why?"; strings.Join(sent, "|") != want {
		t.Fatalf("after picking the second the request carries %q, want %q", sent, want)
	}
	quitChat(t, tm)

	tm = startParley(t, launch{Width: 200, Height: 60, Gateway: gw, Config: chatConfig, home: home, args: []string{"--continue"}})
	tm.waitText("Mini answers: beta.", "‹ 2/3 ›")
	quitChat(t, tm)

	cmd := exec.Command(parleyBinary(t), "sessions", "list")
	cmd.Env = compareEnv(home, gw)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sessions list: %v", err)
	}
	id := strings.Fields(string(out))[0]
	cmd = exec.Command(parleyBinary(t), "sessions", "export", "--all-branches", id)
	cmd.Env = compareEnv(home, gw)
	exp, err := cmd.Output()
	if err != nil {
		t.Fatalf("sessions export: %v", err)
	}
	for _, want := range []string{"Big answers: alpha.", "Mini answers: beta.", "Llava answers: gamma."} {
		if !strings.Contains(string(exp), want) {
			t.Errorf("the export lost %q:\n%s", want, exp)
		}
	}
}

func compareEnv(home string, gw *apitest.Server) []string {
	return []string{
		"PATH=/usr/bin:/bin",
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"OPENAI_BASE_URL=" + gw.URL(),
		"OPENAI_API_KEY=" + apitest.DefaultAPIKey,
	}
}

// TestCompareStacksOnANarrowScreen: at 80 columns the same compare shows
// one reply at a time as ‹ i/n ›, ←/→ going through them.
func TestCompareStacksOnANarrowScreen(t *testing.T) {
	t.Parallel()
	gw := compareGateway(t, false)
	tm := startParley(t, launch{Width: 80, Height: 30, Gateway: gw, Config: chatConfig})
	tm.waitText(composerReady)
	tm.send("/compare gpt-4o gpt-4o-mini llava")
	tm.waitText("next message goes to")
	tm.send("Which tea?")
	s := tm.waitText("‹ 1/3 › gpt-4o", "Big answers: alpha.", "pick")
	if strings.Contains(s, "Mini answers") {
		t.Fatalf("a narrow screen shows more than one reply:\n%s", frame(s))
	}
	tm.keys("Right")
	tm.waitText("‹ 2/3 › gpt-4o-mini", "Mini answers: beta.")
	tm.keys("Right")
	tm.waitText("‹ 3/3 › llava", "Llava answers: gamma.", "Thought for")
	tm.keys("Enter")
	tm.waitText("going on from llava", "‹ 3/3 ›")
}

// TestCompareOneModelFails: one model answering HTTP 500 shows its error
// in its column; the others' answers are whole.
func TestCompareOneModelFails(t *testing.T) {
	t.Parallel()
	gw := compareGateway(t, true)
	tm := startParley(t, launch{Width: 170, Height: 40, Gateway: gw, Config: chatConfig})
	tm.waitText(composerReady)
	tm.send("/compare gpt-4o llama3 gpt-4o-mini")
	tm.waitText("next message goes to")
	tm.send("Which tea?")
	tm.waitText("2 · llama3", "✗ failed", "the llama crashed", "Big answers: alpha.", "Mini answers: beta.", "pick")
}
