package session

import (
	"context"
	"testing"
	"time"

	"parley/conversation"
)

// TestSavesLeaveTheRowWithinAMinute: a progress save adds pieces and
// leaves the streaming reply's row alone unless it must change: when the
// reasoning begins, when another process marked the reply abandoned, and
// at least every rowRefresh. A reply that streams for longer than
// staleAfter is never taken for abandoned by another open meanwhile.
func TestSavesLeaveTheRowWithinAMinute(t *testing.T) {
	c := newClock()
	s, dir := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("think it through", nil)
	id, _ := conv.StartReply("deepseek-r1")
	flush(t, r)
	row := func() (state string, updated, reasoningEnd int64) {
		t.Helper()
		if err := s.db.QueryRow("SELECT state, updated, reasoning_end FROM messages WHERE seq = ?", id).Scan(&state, &updated, &reasoningEnd); err != nil {
			t.Fatal(err)
		}
		return state, updated, reasoningEnd
	}
	save := func(piece string) {
		t.Helper()
		c.advance(conversation.ReasoningProgressEvery)
		conv.AppendReasoning(id, piece)
		flush(t, r)
	}

	save("first, ")
	_, firstUpdated, end := row()
	if end == 0 {
		t.Fatal("the first save of reasoning left reasoning_end 0: its pieces would not be read")
	}
	save("then ")
	if _, updated, _ := row(); updated != firstUpdated {
		t.Fatalf("a save %v after the last rewrote the row (updated %d → %d)", conversation.ReasoningProgressEvery, firstUpdated, updated)
	}
	// Another process takes the reply for abandoned; the next save says
	// it is not.
	if _, err := s.db.Exec("UPDATE messages SET state = 'interrupted' WHERE seq = ?", id); err != nil {
		t.Fatal(err)
	}
	save("and ")
	if state, _, _ := row(); state != "streaming" {
		t.Fatalf("state %q after a save of a reply marked abandoned", state)
	}

	// Twelve minutes more of saves, each followed by another process's
	// open (which recovers abandoned replies): the reply stays streaming.
	for i := 0; i < int(staleAfter/conversation.ReasoningProgressEvery)+8; i++ {
		save("more. ")
		other := openIn(t, dir, c)
		other.Close()
		if state, updated, _ := row(); state != "streaming" || millis(c.now())-updated > rowRefresh.Milliseconds() {
			t.Fatalf("after %v: state %q, updated %v before the last save", time.Duration(i)*conversation.ReasoningProgressEvery, state, time.Duration(millis(c.now())-updated)*time.Millisecond)
		}
	}
	conv.AppendDelta(id, "Option x.")
	conv.Finish(id, "stop", nil)
	flush(t, r)
	got, err := s.Load(context.Background(), conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	m := got.Snapshot.Messages[1]
	if m.State != conversation.StateDone || m.Reasoning[:15] != "first, then and" || !m.ReasoningEnd.Equal(conv.Messages()[1].ReasoningEnd) {
		t.Fatalf("final reply %s, reasoning %q…, ended %v", m.State, m.Reasoning[:15], m.ReasoningEnd)
	}
}
