package session

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// toolTurn records a reply that called a tool whose result carried an
// image, through a recorder, the way the engine does.
func toolTurn(t *testing.T, r *Recorder, c *clock, img api.Attachment) *conversation.Conversation {
	t.Helper()
	conv := conversation.New(conversation.Options{ID: "tools1", Listeners: []conversation.Listener{r}, Now: c.now})
	if _, err := conv.AddUser("weather in Oslo?", nil); err != nil {
		t.Fatal(err)
	}
	id, err := conv.StartReply("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	turn := &conversation.Turn{ReplyID: id}
	conv.AppendDelta(id, "Let me look. ")
	step, err := conv.AddToolCalls(turn, []conversation.ToolCallMade{{ID: "call_1", Name: "get_weather", Server: "wx", Tool: "get_weather", Arguments: `{"city":"Oslo"}`}})
	if err != nil {
		t.Fatal(err)
	}
	flush(t, r) // the calls are kept while the reply streams
	if err := conv.SetToolResult(turn, step, 0, conversation.ToolCallMade{ID: "call_1", Name: "get_weather", Server: "wx", Tool: "get_weather",
		Arguments: `{"city":"Oslo"}`, Result: "snowflurries, minus four", Bytes: 24, Took: 300 * time.Millisecond, Images: []api.Attachment{img}}); err != nil {
		t.Fatal(err)
	}
	conv.AppendDelta(id, "It is cold.")
	if err := conv.Finish(id, "stop", nil); err != nil {
		t.Fatal(err)
	}
	flush(t, r)
	return conv
}

func TestAReplysToolCallsAreKeptSearchedAndExported(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	img := imageAttachment(t, "tool result", 4, 3, 7)
	toolTurn(t, r, c, img)
	ctx := context.Background()

	got, err := s.Load(ctx, "tools1")
	if err != nil {
		t.Fatal(err)
	}
	m := got.Snapshot.Messages[1]
	if m.Text != "Let me look. It is cold." || len(m.Tools) != 1 || m.Tools[0].At != len("Let me look. ") {
		t.Fatalf("reopened reply %q %+v", m.Text, m.Tools)
	}
	call := m.Tools[0].Calls[0]
	if !call.Done || call.Result != "snowflurries, minus four" || call.Server != "wx" || call.Took != 300*time.Millisecond ||
		len(call.Images) != 1 || !bytes.Equal(call.Images[0].Data, img.Data) {
		t.Fatalf("reopened call %+v", call)
	}
	// Reopened, the calls go to the model again in order.
	conv := conversation.Restore(conversation.Options{ID: "tools1"}, got.Snapshot)
	req := conv.BuildRequest(conversation.RequestOptions{})
	var roles []string
	for _, msg := range req.Messages {
		roles = append(roles, msg.Role)
	}
	if strings.Join(roles, " ") != "user assistant tool assistant" || req.Messages[2].ToolCallID != "call_1" || req.Messages[2].Content.Text != "snowflurries, minus four" {
		t.Fatalf("reopened request %v %+v", roles, req.Messages)
	}

	hits, err := s.Search(ctx, "snowflurries", 10)
	if err != nil || len(hits) != 1 || hits[0].SessionID != "tools1" || hits[0].MessageID != 2 {
		t.Fatalf("searching a tool's result: %+v %v", hits, err)
	}

	var md bytes.Buffer
	if err := s.Export(ctx, "tools1", &md, ExportOptions{Format: FormatMarkdown, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Let me look.\n\n**Tool call** `get_weather` · wx · 0.3 s · 24 B\n\n```json\n{\n  \"city\": \"Oslo\"\n}\n```\n\n> snowflurries, minus four\n", "\nIt is cold.\n", "![tool result]("} {
		if !strings.Contains(md.String(), want) {
			t.Fatalf("the Markdown export lacks %q:\n%s", want, md.String())
		}
	}
	var js bytes.Buffer
	if err := s.Export(ctx, "tools1", &js, ExportOptions{Format: FormatJSON, Location: time.UTC}); err != nil {
		t.Fatal(err)
	}
	var doc jsonSession
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	calls := doc.Messages[1].ToolCalls
	if len(calls) != 1 || calls[0].ID != "call_1" || calls[0].Result != "snowflurries, minus four" || !calls[0].Ran || calls[0].MS != 300 || len(calls[0].Images) != 1 {
		t.Fatalf("the JSON export's calls %+v", calls)
	}
}

func TestToolImagesSurviveTheCollectionOfUnusedBlobs(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	img := imageAttachment(t, "tool result", 4, 3, 9)
	toolTurn(t, r, c, img)
	if err := s.collect(context.Background(), []string{img.SHA256}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.folder.readBlob(img.SHA256); err != nil {
		t.Fatalf("a tool result's image was collected: %v", err)
	}
}
