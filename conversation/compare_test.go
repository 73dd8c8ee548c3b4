package conversation

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"parley/api"
)

// A compare adds the question once and one reply per model, siblings in
// flight together, each with its own text; the path ends at the first;
// nothing can switch until the last has ended; then any can be picked.
func TestBeginCompareStreamsSiblingsTogether(t *testing.T) {
	c := New(Options{})
	rec := &recorded{}
	c.Listen(rec)
	models := []string{"a", "b", "c"}
	var opts []TurnOptions
	for _, m := range models {
		opts = append(opts, TurnOptions{Model: m})
	}
	turns, skipped, err := c.BeginCompare(&UserInput{Text: "which?"}, opts)
	if err != nil || len(skipped) != 0 || len(turns) != 3 {
		t.Fatalf("begin: %v, skipped %v, %d turns", err, skipped, len(turns))
	}
	for i, tu := range turns {
		if tu.Chat.Model != models[i] || !reflect.DeepEqual(tu.Chat.Messages, turns[0].Chat.Messages) {
			t.Fatalf("turn %d: model %q, messages %+v", i, tu.Chat.Model, tu.Chat.Messages)
		}
	}
	if c.Len() != 2 || c.Leaf() != turns[0].ReplyID {
		t.Fatalf("path of %d ends at %d, want 2 ending at %d", c.Len(), c.Leaf(), turns[0].ReplyID)
	}
	if got := c.InFlight(); len(got) != 3 {
		t.Fatalf("in flight %v", got)
	}
	for i, tu := range turns {
		c.Receive(tu, strings.Repeat(models[i], 3), nil, "")
	}
	var offPath int
	for _, ch := range rec.changes {
		if ch.Kind == ChangeDelta && ch.OffPath {
			offPath++
		}
	}
	if offPath != 2 {
		t.Fatalf("%d off-path deltas, want 2", offPath)
	}
	if err := c.Close(turns[0], nil); err != nil {
		t.Fatal(err)
	}
	if c.Streaming() != turns[1].ReplyID {
		t.Fatalf("streaming %d, want the second reply %d", c.Streaming(), turns[1].ReplyID)
	}
	if err := c.SwitchTo(turns[1].ReplyID); !errors.Is(err, ErrBusy) {
		t.Fatalf("switch while two stream: %v", err)
	}
	if _, err := c.Begin(&UserInput{Text: "more"}, TurnOptions{Model: "a"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("begin while two stream: %v", err)
	}
	_ = c.Close(turns[1], nil)
	_ = c.Close(turns[2], errors.New("HTTP 500"))
	if c.Streaming() != 0 {
		t.Fatalf("still streaming %d", c.Streaming())
	}
	for i, tu := range turns {
		m, _ := c.ByID(tu.ReplyID)
		if m.Text != strings.Repeat(models[i], 3) || m.AltIndex != i || m.AltCount != 3 || m.Model != models[i] {
			t.Fatalf("reply %d: %+v", i, m)
		}
	}
	if m, _ := c.ByID(turns[2].ReplyID); m.State != StateFailed || m.Err != "HTTP 500" {
		t.Fatalf("failed reply %+v", m)
	}
	if err := c.SwitchTo(turns[1].ReplyID); err != nil {
		t.Fatal(err)
	}
	if r, _ := c.LastReply(); r.Text != "bbb" {
		t.Fatalf("picked %q", r.Text)
	}
	// Going on from the pick sends its text as the assistant message.
	next, err := c.Begin(&UserInput{Text: "why?"}, TurnOptions{Model: "a"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := next.Chat.Messages
	if len(msgs) != 3 || msgs[1].Content.PlainText() != "bbb" {
		t.Fatalf("next request %+v", msgs)
	}
}

// A model that cannot see the message's images is left out with a
// sentence naming it; the rest go. When none can, nothing changes.
func TestBeginCompareLeavesOutBlindModels(t *testing.T) {
	cat := api.NewCatalog(nil)
	c := New(Options{})
	in := &UserInput{Text: "what is it?", Attachments: []api.Attachment{pngAttachment()}}
	turns, skipped, err := c.BeginCompare(in, []TurnOptions{{Model: "llama3", Catalog: cat}, {Model: "gpt-4o", Catalog: cat}})
	if err != nil || len(turns) != 1 || len(skipped) != 1 || skipped[0].Model != "llama3" {
		t.Fatalf("err %v, %d turns, skipped %+v", err, len(turns), skipped)
	}
	if s := skipped[0].Sentence(); !strings.HasPrefix(s, "llama3 was left out of the compare: ") {
		t.Fatalf("sentence %q", s)
	}
	_ = c.Close(turns[0], nil)

	d := New(Options{})
	_, _, err = d.BeginCompare(in, []TurnOptions{{Model: "llama3", Catalog: cat}, {Model: "mistral", Catalog: cat}})
	if err == nil || d.Len() != 0 {
		t.Fatalf("all blind: err %v, %d messages", err, d.Len())
	}
}

// A compare refuses too many models, none, and one named twice, before
// anything changes.
func TestBeginCompareRefusals(t *testing.T) {
	c := New(Options{})
	five := []TurnOptions{{Model: "a"}, {Model: "b"}, {Model: "c"}, {Model: "d"}, {Model: "e"}}
	for _, tc := range []struct {
		opts []TurnOptions
		want error
	}{
		{nil, ErrCompareModels},
		{five, ErrCompareModels},
		{[]TurnOptions{{Model: "a"}, {Model: "a"}}, ErrCompareTwice},
		{[]TurnOptions{{Model: "a"}, {Model: ""}}, ErrNoModel},
	} {
		if _, _, err := c.BeginCompare(&UserInput{Text: "q"}, tc.opts); !errors.Is(err, tc.want) || c.Len() != 0 {
			t.Fatalf("%v: err %v, want %v; %d messages", tc.opts, err, tc.want, c.Len())
		}
	}
}

// Each reply in flight is saved on its own clock: a ChangeProgress for
// every sibling that received text.
func TestCompareProgressPerReply(t *testing.T) {
	clock := newClock()
	c := New(Options{Now: clock.now})
	rec := &recorded{}
	c.Listen(rec)
	turns, _, err := c.BeginCompare(&UserInput{Text: "q"}, []TurnOptions{{Model: "a"}, {Model: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	clock.advance(2 * DefaultProgressEvery)
	c.Receive(turns[0], "x", nil, "")
	c.Receive(turns[1], "y", nil, "")
	got := map[int]string{}
	for _, ch := range rec.changes {
		if ch.Kind == ChangeProgress {
			got[ch.Message.ID] = ch.Message.Text
		}
	}
	if got[turns[0].ReplyID] != "x" || got[turns[1].ReplyID] != "y" {
		t.Fatalf("progress %v", got)
	}
}
