package session

import (
	"bytes"
	"context"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// A reply's reasoning, its times and tokens, a text file and the
// conversation's role and /set parameters are written and read back; the
// reasoning is saved while it streams, before the answer starts.
func TestReasoningTextFilesAndSettingsRoundTrip(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	ctx := context.Background()
	conv := conversation.New(conversation.Options{ID: "0190f0a1b2c3d4e5f60718293a4b5c70", Listeners: []conversation.Listener{r}, Now: c.now, ProgressEvery: time.Second})
	conv.SetRole("reviewer")
	p, _ := api.ParseParam("max_tokens", "300")
	stop, _ := api.ParseParam("stop", `["###","END"]`)
	conv.SetParams(p.With(stop))
	file, err := api.AttachBytesContext(context.Background(), "main.go", []byte("package main\n\nfunc main() {}\n"), api.AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conv.AddUser("review this", []api.Attachment{file}); err != nil {
		t.Fatal(err)
	}
	id, _ := conv.StartReply("deepseek-r1")
	conv.AppendReasoning(id, "The file is tiny. ")
	c.advance(conversation.ReasoningProgressEvery)
	conv.AppendReasoning(id, "It does nothing.")
	flush(t, r)

	// Mid-stream, the reasoning so far is on disk.
	mid, err := s.Load(ctx, conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := mid.Snapshot.Messages[1].Reasoning; got != "The file is tiny. It does nothing." {
		t.Fatalf("reasoning saved while streaming: %q", got)
	}

	conv.AppendDelta(id, "Looks fine, but it does nothing.")
	conv.Finish(id, "stop", &api.Usage{PromptTokens: 30, CompletionTokens: 60, TotalTokens: 90, CompletionTokensDetails: &api.TokensDetails{ReasoningTokens: 40}})
	flush(t, r)

	got, err := s.Load(ctx, conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got.Role != "reviewer" || got.Snapshot.Role != "reviewer" || *got.Snapshot.Params.MaxTokens != 300 || len(got.Snapshot.Params.Stop) != 2 {
		t.Fatalf("settings: role %q params %+v", got.Snapshot.Role, got.Snapshot.Params)
	}
	u := got.Snapshot.Messages[0]
	if len(u.Attachments) != 1 || !u.Attachments[0].IsText() || !bytes.Equal(u.Attachments[0].Data, file.Data) ||
		u.Attachments[0].Lines != 3 || u.Attachments[0].Name != "main.go" || u.Attachments[0].URL != "" {
		t.Fatalf("text file read back as %+v", u.Attachments)
	}
	reply := got.Snapshot.Messages[1]
	if reply.Text != "Looks fine, but it does nothing." || reply.Reasoning != "The file is tiny. It does nothing." ||
		reply.ThoughtFor() != conversation.ReasoningProgressEvery || reply.Usage.ReasoningTokens() != 40 {
		t.Fatalf("reply: %q / %q / %v / %+v", reply.Text, reply.Reasoning, reply.ThoughtFor(), reply.Usage)
	}
	// The restored conversation sends the file again and never the reasoning.
	back := conversation.Restore(conversation.Options{}, got.Snapshot)
	req := back.BuildRequest(conversation.RequestOptions{})
	if parts := req.Messages[0].Content.Parts; len(parts) != 2 || parts[1].Text != file.TextBlock() {
		t.Fatalf("the file goes as %+v", parts)
	}
	if req.Messages[1].Content.Text != reply.Text || back.Role() != "reviewer" {
		t.Fatalf("reply sent as %+v", req.Messages[1])
	}
	// Search finds the answer, not the reasoning.
	if hits, err := s.Search(ctx, "tiny", 10); err != nil || len(hits) != 0 {
		t.Fatalf("search found the reasoning: %+v %v", hits, err)
	}
	// Clearing the settings is stored too.
	conv.SetRole("")
	conv.SetParams(api.Params{})
	flush(t, r)
	if m, err := s.Get(ctx, conv.ID()); err != nil || m.Role != "" || !m.Params.IsZero() {
		t.Fatalf("cleared settings: %+v %v", m, err)
	}
}

// A draft keeps its text files like its images.
func TestDraftWithTextFile(t *testing.T) {
	s, _ := openStore(t, newClock())
	ctx := context.Background()
	file, _ := api.AttachBytesContext(context.Background(), "notes.txt", []byte("one\ntwo"), api.AttachLimits{})
	img := imageAttachment(t, "a.png", 4, 4, 1)
	if err := s.SaveDraft(ctx, "0190f0a1b2c3d4e5f60718293a4b5c71", "half", []api.Attachment{file, img}); err != nil {
		t.Fatal(err)
	}
	text, atts, err := s.Draft(ctx, "0190f0a1b2c3d4e5f60718293a4b5c71")
	if err != nil || text != "half" || len(atts) != 2 {
		t.Fatalf("draft %q %+v %v", text, atts, err)
	}
	if !atts[0].IsText() || string(atts[0].Data) != "one\ntwo" || atts[0].Lines != 2 || atts[1].IsText() || !bytes.Equal(atts[1].Data, img.Data) {
		t.Fatalf("draft attachments %+v", atts)
	}
}

// Stored params are checked again when read: a value this build does not
// take is left out rather than sent.
func TestStoredParamsAreChecked(t *testing.T) {
	p := parseParams(`{"temperature":0.5,"top_k":3,"max_tokens":0,"stop":"###"}`)
	if names := p.Names(); len(names) != 2 || *p.Temperature != 0.5 || p.Stop[0] != "###" {
		t.Fatalf("params %+v", p)
	}
	if seed := parseParams(`{"seed":9007199254740993}`).Seed; seed == nil || *seed != 9007199254740993 {
		t.Fatalf("a large seed read back as %v", seed)
	}
	if !parseParams("not json").IsZero() || !parseParams("").IsZero() {
		t.Fatal("garbage made params")
	}
}
