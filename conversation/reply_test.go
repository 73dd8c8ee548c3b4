package conversation

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
)

func pngAttachment() api.Attachment {
	return api.Attachment{Name: "a.png", MIME: "image/png", Data: []byte("\x89PNG\r\n\x1a\n"), Width: 1, Height: 1}
}

// Begin refuses an image for a model without vision before anything
// changes, and offers to leave earlier images out.
func TestBeginVision(t *testing.T) {
	cat := api.NewCatalog(nil)
	c := New(Options{})
	var changes int
	c.Listen(ListenerFunc(func(Change) { changes++ }))

	_, err := c.Begin(&UserInput{Text: "what is it?", Attachments: []api.Attachment{pngAttachment()}}, TurnOptions{Model: "llama3", Catalog: cat})
	var ve *VisionError
	if !errors.As(err, &ve) || ve.Earlier || c.Len() != 0 || changes != 0 {
		t.Fatalf("own image to llama3: err %v, %d messages, %d changes", err, c.Len(), changes)
	}
	turn, err := c.Begin(&UserInput{Text: "what is it?", Attachments: []api.Attachment{pngAttachment()}}, TurnOptions{Model: "gpt-4o", Catalog: cat})
	if err != nil || !turn.Built.HasImages {
		t.Fatalf("gpt-4o: %v %+v", err, turn)
	}
	c.Receive(turn, "a dot", nil, "stop")
	if err := c.Close(turn, nil); err != nil {
		t.Fatal(err)
	}

	before := c.Len()
	_, err = c.Begin(&UserInput{Text: "and now?"}, TurnOptions{Model: "llama3", Catalog: cat})
	if !errors.As(err, &ve) || !ve.Earlier || c.Len() != before {
		t.Fatalf("earlier image to llama3: err %v, %d messages", err, c.Len())
	}
	if !strings.Contains(err.Error(), "llama3") || !strings.Contains(err.Error(), "leave the images out") {
		t.Fatalf("message %q", err)
	}
	turn, err = c.Begin(&UserInput{Text: "and now?"}, TurnOptions{Model: "llama3", Catalog: cat, WithoutImages: true})
	if err != nil || turn.Built.HasImages {
		t.Fatalf("without images: %v %+v", err, turn.Built)
	}
	if first := turn.Chat.Messages[0]; first.Content.PlainText() != "what is it?" || len(first.Content.Parts) != 0 {
		t.Fatalf("first turn sent as %+v", first)
	}
}

// Close maps the end of a stream to the reply's state.
func TestCloseStates(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want State
	}{
		{nil, StateDone},
		{context.Canceled, StateInterrupted},
		{errors.New("boom \x1b[2J"), StateFailed},
	} {
		c := New(Options{})
		turn, err := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		c.Receive(turn, "part", &api.Usage{CompletionTokens: 2}, "stop")
		if err := c.Close(turn, tc.err); err != nil {
			t.Fatal(err)
		}
		r, _ := c.LastReply()
		if r.State != tc.want || r.Text != "part" || strings.ContainsRune(r.Err, 0x1b) {
			t.Fatalf("%v: reply %+v", tc.err, r)
		}
		if tc.want == StateDone && (r.Usage == nil || r.Usage.CompletionTokens != 2 || r.FinishReason != "stop") {
			t.Fatalf("done reply lost usage or finish: %+v", r)
		}
	}
}

// Begin without a user message answers the last one again; with nothing to
// answer, or without a model, it refuses.
func TestBeginRetryAndRefusals(t *testing.T) {
	c := New(Options{})
	if _, err := c.Begin(nil, TurnOptions{Model: "m"}); !errors.Is(err, ErrNothingToRetry) {
		t.Fatalf("retry of nothing: %v", err)
	}
	if _, err := c.Begin(&UserInput{Text: "q"}, TurnOptions{}); !errors.Is(err, ErrNoModel) {
		t.Fatalf("no model: %v", err)
	}
	turn, _ := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
	if _, err := c.Begin(&UserInput{Text: "again"}, TurnOptions{Model: "m"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("while streaming: %v", err)
	}
	_ = c.Close(turn, errors.New("500"))
	turn, err := c.Begin(nil, TurnOptions{Model: "m"})
	if err != nil || c.Len() != 2 || len(turn.Chat.Messages) != 1 || turn.Chat.Messages[0].Content.PlainText() != "q" {
		t.Fatalf("retry: %v, %d messages, %+v", err, c.Len(), turn)
	}
}

func TestMakeTitleIsPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"## **Explain** `defer` in [Go](https://go.dev)": "Explain defer in Go",
		"\n\n```go\nx := 1\n```\nwhy does this fail?":    "why does this fail?",
		"> quoted *thing*": "quoted thing",
		"  plain   words ": "plain words",
	} {
		if got := MakeTitle(in); got != want {
			t.Errorf("MakeTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// Text that arrives right before a silence is reported by FlushProgress
// once ProgressEvery has passed, without waiting for another delta.
func TestFlushProgressAfterSilence(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var progress []string
	c := New(Options{Now: func() time.Time { return now }, Listeners: []Listener{ListenerFunc(func(ch Change) {
		if ch.Kind == ChangeProgress {
			progress = append(progress, ch.Message.Text)
		}
	})}})
	turn, _ := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "m"})
	now = now.Add(100 * time.Millisecond)
	c.Receive(turn, "early text", nil, "")
	c.FlushProgress()
	if len(progress) != 0 {
		t.Fatalf("progress before a second: %q", progress)
	}
	now = now.Add(time.Second)
	c.FlushProgress()
	c.FlushProgress()
	if len(progress) != 1 || progress[0] != "early text" {
		t.Fatalf("progress after the silence: %q", progress)
	}
}

// TestTurnOverReplyCap: the turn path the chat and ask share keeps a reply
// stopped at max_reply_bytes as a failed reply with its text so far, the
// cap's sentence as its error.
func TestTurnOverReplyCap(t *testing.T) {
	gw := apitest.New(t)
	text := strings.Repeat("a long reply ", 1000)
	gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: 100})
	client, err := api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey, MaxReplyBytes: 4000})
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	c := New(Options{})
	turn, err := c.Begin(&UserInput{Text: "q"}, TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := client.ChatStream(context.Background(), turn.Chat)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for {
		ev, err := s.Recv()
		if err != nil {
			c.Close(turn, err)
			break
		}
		c.Receive(turn, ev.Text, ev.Usage, ev.FinishReason)
	}
	r, _ := c.LastReply()
	if r.State != StateFailed || r.Text != text[:4000] || r.Err != "the reply is larger than 4.0 KB (max_reply_bytes); the text so far is kept" {
		t.Fatalf("reply %v, %d bytes, %q", r.State, len(r.Text), r.Err)
	}
}
