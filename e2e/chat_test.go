package e2e

import (
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// chatConfig is the config of a user with a gateway in the environment.
const chatConfig = "default_model = \"gpt-4o\"\n"

// composerReady is on screen when the composer is empty and waits for text.
const composerReady = "Message gpt-4o"

// startChat starts parley against gw and waits for the empty composer.
func startChat(t *testing.T, gw *apitest.Server) *term {
	t.Helper()
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig})
	tm.waitText(composerReady)
	return tm
}

// chatRequests returns the chat requests the gateway received.
func chatRequests(gw *apitest.Server) []apitest.Request {
	return gw.RequestsTo("/chat/completions")
}

// lastMessage is the role and text of the last message of a chat request.
func lastMessage(t *testing.T, r apitest.Request) (role, text string) {
	t.Helper()
	if r.Chat == nil || len(r.Chat.Messages) == 0 {
		t.Fatalf("not a chat request with messages: %s", r.Body)
	}
	m := r.Chat.Messages[len(r.Chat.Messages)-1]
	return m.Role, m.Content.PlainText()
}

// TestStreamedReply types a prompt, sends it with enter and watches the
// reply stream in: first a part of it while the status says it is being
// written, then all of it, rendered as Markdown, with the turn finished.
func TestStreamedReply(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{
		Deltas: []string{
			"## Lighthouses\n\n", "Lighthouses guide ", "ships past ", "the rocks.\n\n",
			"- a **Fresnel** lens\n", "- a rotating beam\n\n", "That is the end ", "of the reply.",
		},
		Interval: 100 * time.Millisecond,
		// A pause in the middle keeps the partial state on screen long
		// enough for a slow machine to see it.
		StallAfterDeltas: 4, Stall: time.Second,
	})
	tm := startChat(t, gw)

	tm.typeText("How do lighthouses work?")
	tm.waitText("How do lighthouses work?")
	tm.keys("Enter")

	// Some of the text before the stall, none after it.
	partial := tm.waitFor("a partial reply", func(s string) bool {
		return strings.Contains(s, "Lighthouses guide") && !strings.Contains(s, "Fresnel")
	})
	if !strings.Contains(partial, "writing") {
		t.Errorf("while the reply streams, nothing says it is being written:\n%s", frame(partial))
	}

	tm.waitText("That is the end of the reply.")
	final := tm.waitGone("writing")
	for _, want := range []string{"How do lighthouses work?", "Lighthouses guide ships past the rocks.", "Fresnel lens", "a rotating beam"} {
		if !strings.Contains(final, want) {
			t.Errorf("the finished reply lacks %q:\n%s", want, frame(final))
		}
	}
	// Markdown is rendered, not shown as source.
	for _, raw := range []string{"**Fresnel**", "- a rotating"} {
		if strings.Contains(final, raw) {
			t.Errorf("Markdown source %q shown as is:\n%s", raw, frame(final))
		}
	}
	// The composer is empty and ready again.
	if !strings.Contains(final, composerReady) {
		t.Errorf("the composer is not empty after sending:\n%s", frame(final))
	}

	reqs := chatRequests(gw)
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests, want 1", len(reqs))
	}
	if reqs[0].Chat.Model != "gpt-4o" || !reqs[0].Chat.Stream {
		t.Errorf("request: model %q stream %v, want gpt-4o streaming", reqs[0].Chat.Model, reqs[0].Chat.Stream)
	}
	if role, text := lastMessage(t, reqs[0]); role != "user" || text != "How do lighthouses work?" {
		t.Errorf("sent %s %q", role, text)
	}
}

// TestCancelMidStream stops a reply while the gateway is still sending it:
// the text so far stays, marked interrupted, the request is really
// abandoned, and the next turn carries the partial reply as context. Esc
// stops it, and so does a single ctrl+c while streaming.
func TestCancelMidStream(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"Escape", "C-c"} {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			gw := apitest.New(t)
			// The stream stalls after three deltas until the client goes
			// away, so it is reliably in flight when the key is pressed.
			gw.Enqueue(apitest.Reply{Deltas: []string{"Partial ", "answer ", "so far"}, StallAfterDeltas: 3})
			tm := startChat(t, gw)

			tm.send("Tell me a long story")
			tm.waitText("Partial answer so far", "writing")
			if gw.InFlight() != 1 {
				t.Fatalf("%d requests in flight while streaming, want 1", gw.InFlight())
			}
			tm.keys(key)
			tm.waitText("interrupted")
			s := tm.waitGone("writing")
			if !strings.Contains(s, "Partial answer so far") {
				t.Errorf("the partial text is gone after cancelling:\n%s", frame(s))
			}
			if strings.Contains(s, "failed") || strings.Contains(s, "✗") {
				t.Errorf("a cancelled reply is shown as failed:\n%s", frame(s))
			}
			if strings.Contains(s, "again to quit") && key == "C-c" {
				t.Errorf("ctrl+c while streaming asks to quit instead of only stopping:\n%s", frame(s))
			}
			waitUntil(t, "the gateway to see the client go away", func() bool { return gw.InFlight() == 0 })

			// The app keeps working, and the interrupted reply is context.
			tm.send("Go on")
			tm.waitText("You said: Go on")
			reqs := chatRequests(gw)
			if len(reqs) != 2 {
				t.Fatalf("%d chat requests, want 2", len(reqs))
			}
			var history []string
			for _, m := range reqs[1].Chat.Messages {
				history = append(history, m.Role+": "+m.Content.PlainText())
			}
			want := []string{"user: Tell me a long story", "assistant: Partial answer so far", "user: Go on"}
			if strings.Join(history, "\n") != strings.Join(want, "\n") {
				t.Errorf("the next turn sent\n%s\nwant\n%s", strings.Join(history, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestRetryAfterServerError: the gateway fails with 500 on every attempt
// (the client retries 5xx twice), the turn shows as failed inline with the
// gateway's message and the retry hint, the user's message stays, and
// ctrl+r sends it again and shows the reply in place of the failure.
func TestRetryAfterServerError(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	e500 := apitest.Reply{
		Status:       500,
		Header:       map[string]string{"retry-after-ms": "1"}, // no backoff wait in the test
		ErrorMessage: "The server had an error while processing your request.",
	}
	gw.Enqueue(e500, e500, e500, apitest.Reply{Text: "Recovered: the second try worked."})
	tm := startChat(t, gw)

	tm.send("Are you there?")
	s := tm.waitText("500", "ctrl+r to retry")
	for _, want := range []string{"Are you there?", "The server", "had an error", "✗"} {
		if !strings.Contains(s, want) {
			t.Errorf("the failed turn lacks %q:\n%s", want, frame(s))
		}
	}
	if n := len(chatRequests(gw)); n != 3 {
		t.Errorf("%d attempts before showing the failure, want 3", n)
	}

	tm.keys("C-r")
	tm.waitText("Recovered: the second try worked.")
	s = tm.waitGone("ctrl+r to retry", "The server had an error")
	if c := strings.Count(s, "┃ Are you there?"); c != 1 {
		t.Errorf("the user turn shows %d times after the retry, want once:\n%s", c, frame(s))
	}
	reqs := chatRequests(gw)
	if len(reqs) != 4 {
		t.Fatalf("%d chat requests, want 4", len(reqs))
	}
	if n := len(reqs[3].Chat.Messages); n != 1 {
		t.Errorf("the retry sent %d messages, want only the user's one", n)
	}
	if role, text := lastMessage(t, reqs[3]); role != "user" || text != "Are you there?" {
		t.Errorf("the retry sent %s %q", role, text)
	}
}

// TestGatewayErrorThenKeepWorking: a 404 model_not_found shows inline with
// the gateway's message and what to do, and the next message goes through.
func TestGatewayErrorThenKeepWorking(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{
		Status:       404,
		ErrorCode:    "model_not_found",
		ErrorMessage: "The model `gpt-4o` does not exist or you do not have access to it.",
	})
	tm := startChat(t, gw)

	tm.send("First try")
	s := tm.waitText("404", "does not exist")
	if !strings.Contains(s, "model_not_found") {
		t.Errorf("the error does not show the gateway's code:\n%s", frame(s))
	}
	if !strings.Contains(s, composerReady) {
		t.Errorf("the composer is not ready after the error:\n%s", frame(s))
	}

	tm.send("Second try")
	// The failed turn's message is not sent again inside the new one: what
	// the screen shows as two messages never travels as one.
	s = tm.waitText("You said: Second try")
	for _, want := range []string{"First try", "does not exist", "Second try"} {
		if !strings.Contains(s, want) {
			t.Errorf("after the next message, %q is gone from the transcript:\n%s", want, frame(s))
		}
	}
	reqs := chatRequests(gw)
	if n := len(reqs); n != 2 {
		t.Fatalf("%d chat requests, want 2 (a 404 is not retried)", n)
	}
	if n := len(reqs[1].Chat.Messages); n != 1 {
		t.Errorf("the second request sent %d messages, want 1 (the failed turn left out)", n)
	}
	if role, text := lastMessage(t, reqs[1]); role != "user" || text != "Second try" {
		t.Errorf("the second request sent %s %q", role, text)
	}
}

// waitUntil polls cond until it holds or waitTimeout passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", waitTimeout, what)
		}
		time.Sleep(pollEvery)
	}
}
