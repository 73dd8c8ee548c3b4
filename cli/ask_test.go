package cli

import (
	"context"
	"encoding/base64"
	"io"
	"strings"
	"testing"

	"parley/api/apitest"
)

func TestAskStreamsTheReplyEndingWithOneNewline(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "\n\nHello, world!\n\n\n", DeltaRunes: 3})
	r := h.run(nil, "ask", "-m", "gpt-4o", "say", "hello")
	r.mustCode(t, 0)
	if r.stdout != "Hello, world!\n" {
		t.Fatalf("stdout = %q, want %q", r.stdout, "Hello, world!\n")
	}
	reqs := h.gw.RequestsTo("/chat/completions")
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	c := reqs[0].Chat
	if !c.Stream || c.StreamOptions == nil || !c.StreamOptions.IncludeUsage {
		t.Fatalf("want a streaming request asking for usage (gpt-4o reports usage), got %s", reqs[0].Body)
	}
	if len(c.Messages) != 1 || c.Messages[0].Role != "user" || c.Messages[0].Content.PlainText() != "say hello" {
		t.Fatalf("messages = %s", reqs[0].Body)
	}
}

func TestAskReadsPipedStdinBeforeThePrompt(t *testing.T) {
	h := newHarness(t)
	r := h.run(ptr("line one\nline two\n"), "ask", "-m", "gpt-4o", "summarise this")
	r.mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	got := req.Chat.Messages[0].Content.PlainText()
	if want := "line one\nline two\n\nsummarise this"; got != want {
		t.Fatalf("sent %q, want %q", got, want)
	}
	if r.stdout != "You said: "+got+"\n" {
		t.Fatalf("stdout = %q", r.stdout)
	}
}

func TestAskWithOnlyStdin(t *testing.T) {
	h := newHarness(t)
	h.run(ptr("just the pipe"), "ask", "-m", "gpt-4o").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	if got := req.Chat.Messages[0].Content.PlainText(); got != "just the pipe" {
		t.Fatalf("sent %q", got)
	}
}

func TestAskWithoutAnythingToAskIsAUsageError(t *testing.T) {
	h := newHarness(t)
	for _, stdin := range []*string{nil, ptr("  \n")} {
		r := h.run(stdin, "ask", "-m", "gpt-4o")
		r.mustCode(t, 2)
		if !strings.Contains(strings.ToLower(r.stderr), "nothing to ask") {
			t.Fatalf("stderr = %q", r.stderr)
		}
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
}

func TestAskNoStreamSendsNoStreamFields(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "whole reply"})
	r := h.run(nil, "ask", "--no-stream", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	if r.stdout != "whole reply\n" {
		t.Fatalf("stdout = %q", r.stdout)
	}
	req, _ := h.gw.LastRequest()
	for _, k := range []string{"stream", "stream_options"} {
		if _, ok := req.JSON[k]; ok {
			t.Fatalf("request has %q: %s", k, req.Body)
		}
	}
}

func TestAskOmitsStreamOptionsForModelsWithoutUsage(t *testing.T) {
	h := newHarness(t)
	h.run(nil, "ask", "-m", "llama3", "q").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	if _, ok := req.JSON["stream_options"]; ok {
		t.Fatalf("stream_options sent to llama3: %s", req.Body)
	}
	if req.JSON["stream"] != true {
		t.Fatalf("not streaming: %s", req.Body)
	}
}

func TestAskUsageLine(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "ok", Usage: &apitest.Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18}})
	r := h.run(nil, "ask", "--usage", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "usage: 11 prompt + 7 completion = 18 tokens") {
		t.Fatalf("stderr = %q", r.stderr)
	}
	if r.stdout != "ok\n" {
		t.Fatalf("usage leaked into stdout: %q", r.stdout)
	}
	// A model that does not report usage gets an honest line instead.
	r = h.run(nil, "ask", "--usage", "-m", "llama3", "q")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "did not report token usage") {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

func TestAskMakesControlSequencesInert(t *testing.T) {
	deltas := []string{"title\x1b]0;pwned\x07 clip\x1b]52;c;SGk=\x07 ", "clear\x1b[2", "J c1\u009b bidi\u202e end"}
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Deltas: deltas})
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e"} {
		if strings.Contains(r.stdout, bad) {
			t.Fatalf("stdout carries %q: %q", bad, r.stdout)
		}
	}
	for _, visible := range []string{"␛]0;pwned␇", "␛]52;c;SGk=␇", "␛[2J", "⟨U+009B⟩", "⟨U+202E⟩"} {
		if !strings.Contains(r.stdout, visible) {
			t.Fatalf("stdout lacks the placeholder %q: %q", visible, r.stdout)
		}
	}

	h.gw.Enqueue(apitest.Reply{Deltas: deltas})
	raw := h.run(nil, "ask", "--raw", "-m", "gpt-4o", "q")
	raw.mustCode(t, 0)
	if raw.stdout != strings.Join(deltas, "")+"\n" {
		t.Fatalf("--raw changed the reply: %q", raw.stdout)
	}
}

func TestAskAttachesAnImageAsADataURI(t *testing.T) {
	h := newHarness(t)
	img := writePNG(t, t.TempDir(), "shot.jpg", 64, 48, false) // a PNG with the wrong name
	h.run(nil, "ask", "-m", "gpt-4o", "-a", img, "-a", "https://example.com/cat.png", "what is this?").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	parts := req.Chat.Messages[0].Content.Parts
	if len(parts) != 3 || parts[0].Type != "text" || parts[0].Text != "what is this?" {
		t.Fatalf("parts = %s", req.Body)
	}
	url := parts[1].ImageURL.URL
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(url, prefix) {
		t.Fatalf("image url = %.40q, want a PNG data URI (type from the bytes, not the name)", url)
	}
	if _, err := base64.StdEncoding.DecodeString(url[len(prefix):]); err != nil {
		t.Fatalf("data URI does not decode: %v", err)
	}
	if parts[2].ImageURL.URL != "https://example.com/cat.png" {
		t.Fatalf("URL attachment changed: %q", parts[2].ImageURL.URL)
	}
}

func TestAskRefusesImagesForModelsWithoutVision(t *testing.T) {
	h := newHarness(t)
	img := writePNG(t, t.TempDir(), "shot.png", 8, 8, false)
	r := h.run(nil, "ask", "-m", "llama3", "-a", img, "what is this?")
	r.mustCode(t, 2)
	for _, want := range []string{"llama3", "vision = true"} {
		if !strings.Contains(r.stderr, want) {
			t.Fatalf("stderr lacks %q: %q", want, r.stderr)
		}
	}
	// The gateway's list is asked what llama3 takes (it says nothing);
	// no question is sent.
	if n := len(h.gw.RequestsTo("/chat/completions")); n != 0 {
		t.Fatalf("%d chat requests were sent", n)
	}
}

func TestAskRefusesANonImageAttachment(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	path := dir + "/notes.png"
	// A real PDF's second line holds bytes that are not UTF-8.
	if err := writeFile(path, "%PDF-1.7\n%\xe2\xe3\xcf\xd3\nnot really an image"); err != nil {
		t.Fatal(err)
	}
	r := h.run(nil, "ask", "-m", "gpt-4o", "-a", path, "q")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "notes.png") || !strings.Contains(r.stderr, "PDF") {
		t.Fatalf("stderr = %q", r.stderr)
	}
	if h.gw.RequestCount() != 0 {
		t.Fatal("a request was sent")
	}
}

func TestAskGatewayErrorIsOneSentenceWithoutTheKey(t *testing.T) {
	h := newHarness(t)
	h.env["OPENAI_API_KEY"] = "sk-proj-secretsecret1234abcd"
	h.gw.Enqueue(apitest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: sk-proj-secretsecret1234abcd. You can find your API key at https://platform.openai.com.","type":"invalid_request_error","code":"invalid_api_key"}}`})
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 1)
	if strings.Contains(r.stderr, "secretsecret") {
		t.Fatalf("the key leaked: %q", r.stderr)
	}
	if !strings.Contains(r.stderr, "401") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("want one line naming the status, got %q", r.stderr)
	}
	if r.stdout != "" {
		t.Fatalf("stdout = %q", r.stdout)
	}
}

func TestAskStreamCutKeepsThePartialReply(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "partial answer that never ends", DeltaRunes: 4, CutAfterDeltas: 2})
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 1)
	if r.stdout != "partial \n" {
		t.Fatalf("stdout = %q, want the text received so far and a newline", r.stdout)
	}
	if !strings.Contains(r.stderr, "connection broke during the reply") {
		t.Fatalf("stderr = %q", r.stderr)
	}
	if n := h.gw.RequestCount(); n != 1 {
		t.Fatalf("%d requests; a stream that delivered text must not be retried", n)
	}
}

func TestAskSaysWhenTheReplyWasCutOff(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "long", FinishReason: "length"})
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 0)
	if !strings.Contains(r.stderr, "length limit") {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

func TestAskSendsTheSystemPrompt(t *testing.T) {
	h := newHarness(t)
	h.writeConfig("system_prompt = \"Be brief.\"\ndefault_model = \"gpt-4o\"\n")
	h.run(nil, "ask", "q").mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	m := req.Chat.Messages
	if len(m) != 2 || m[0].Role != "system" || m[0].Content.PlainText() != "Be brief." || req.Chat.Model != "gpt-4o" {
		t.Fatalf("request = %s", req.Body)
	}
	h.run(nil, "ask", "-s", "Be verbose.", "q").mustCode(t, 0)
	req, _ = h.gw.LastRequest()
	if req.Chat.Messages[0].Content.PlainText() != "Be verbose." {
		t.Fatalf("--system did not win: %s", req.Body)
	}
}

func TestAskWithoutAModelUsesTheGatewaysFirstChatModel(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "ask", "q")
	r.mustCode(t, 0)
	req, _ := h.gw.LastRequest()
	if req.Chat == nil || req.Chat.Model != "gpt-4o" {
		t.Fatalf("model = %+v", req)
	}
	if !strings.Contains(r.stderr, `using "gpt-4o"`) || !strings.Contains(r.stderr, "--model") {
		t.Fatalf("stderr = %q", r.stderr)
	}
}

func TestAskStreamEndingWithoutDoneIsAnError(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Text: "half a thought", Quirks: apitest.Quirks{NoFinishReason: true, NoDone: true}})
	r := h.run(nil, "ask", "-m", "gpt-4o", "q")
	r.mustCode(t, 1)
	if r.stdout != "half a thought\n" || !strings.Contains(r.stderr, "ended early") {
		t.Fatalf("stdout = %q, stderr = %q", r.stdout, r.stderr)
	}
}

// TestAskInterruptedWhileReadingStdin: Ctrl-C while stdin is still open
// ends parley at once with status 130, and nothing is sent.
func TestAskInterruptedWhileReadingStdin(t *testing.T) {
	h := newHarness(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	var out, errb strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		pw.Write([]byte("some text, and the pipe stays open"))
		cancel()
	}()
	code := Main(ctx, []string{"ask", "-m", "gpt-4o", "q"}, Env{
		Stdin: pr, Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return h.env[k] }, HomeDir: h.home,
	})
	if code != ExitInterrupted || errb.String() != "parley: Interrupted.\n" || out.String() != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if n := h.gw.RequestCount(); n != 0 {
		t.Fatalf("%d requests were sent", n)
	}
}

// TestAskWithoutAModelWhenTheGatewayCannotList: a gateway without a model
// list is a usage error asking for --model; a failing one says why.
func TestAskWithoutAModelWhenTheGatewayCannotList(t *testing.T) {
	h := newHarness(t)
	h.gw.Enqueue(apitest.Reply{Status: 404})
	r := h.run(nil, "ask", "q")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "No model chosen, and the gateway lists none; pass --model NAME") {
		t.Fatalf("stderr %q", r.stderr)
	}
	h.gw.Enqueue(apitest.Reply{Status: 401, ErrorMessage: "bad key"})
	r = h.run(nil, "ask", "q")
	r.mustCode(t, 1)
	if !strings.Contains(r.stderr, "asking the gateway for its models failed: the gateway answered 401 Unauthorized: bad key") {
		t.Fatalf("stderr %q", r.stderr)
	}
	if n := len(h.gw.RequestsTo("/chat/completions")); n != 0 {
		t.Fatalf("%d chat requests", n)
	}
}
