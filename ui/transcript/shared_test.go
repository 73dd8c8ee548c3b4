package transcript

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// TestTheMessagesItKeepsAreNeverChanged: the transcript keeps the
// conversation's own messages (ResetSeq, from PathMessages), not copies,
// so it must never change one: a reply still in flight when the path was
// given (its text then comes as deltas), its tools, a turn left out and
// brought back, an update, a switch to part of the path and back (before
// the reply streams on: the conversation refuses a switch while it does),
// a new width, the reasoning unfolded, all of it drawn from the top to
// the bottom. What is shown follows each change all the same.
func TestTheMessagesItKeepsAreNeverChanged(t *testing.T) {
	msgs := conversationOf(30, 4)
	last := &msgs[len(msgs)-1]
	last.Role, last.Model, last.State = api.RoleAssistant, "gpt-4o", conversation.StateStreaming
	last.Text, last.Reasoning = "the answer so far", "thinking it over"
	last.ReasoningStart, last.ReasoningEnd = time.Unix(1, 0), time.Unix(2, 0)
	msgs[1].Reasoning, msgs[1].Tools = "a thought", []conversation.ToolStep{{At: 3, Calls: []conversation.ToolCallMade{{ID: "c", Name: "read", Done: true, Result: "x"}}}}
	want := make([]conversation.Message, len(msgs))
	for i, m := range msgs {
		want[i] = m
		want[i].Tools = slices.Clone(m.Tools)
		want[i].Attachments = slices.Clone(m.Attachments)
	}

	tr := newTest(t, 100, 30)
	tr.ResetSeq(len(msgs), func(yield func(*conversation.Message) bool) {
		for i := range msgs {
			if !yield(&msgs[i]) {
				return
			}
		}
	})
	settle(t, tr)
	tr.SwitchPath(slices.Clone(msgs[:10]))
	settle(t, tr)
	tr.SwitchPath(slices.Clone(msgs))
	tr.AppendDelta(last.ID, " and more")
	tr.UpdateTools(last.ID, []conversation.ToolStep{{At: 5, Calls: []conversation.ToolCallMade{{ID: "d", Name: "list"}}}})
	tr.UpdateTools(msgs[1].ID, nil)
	tr.SetExcluded([]int{msgs[0].ID, msgs[1].ID}, true)
	tr.SetExcluded([]int{msgs[0].ID, msgs[1].ID}, false)
	edited := msgs[2]
	edited.Text, edited.Version = "edited", edited.Version+1
	tr.Update(edited)
	tr.SetSize(70, 30)
	tr.SetThinkingOpen(true)
	tr.List().Top()
	settle(t, tr)
	for tr.List().top() < tr.List().maxTop() {
		tr.List().PageDown()
		settle(t, tr)
	}

	for i := range msgs {
		if !reflect.DeepEqual(msgs[i], want[i]) {
			t.Fatalf("message %d was changed by the transcript:\n%+v\nwas:\n%+v", msgs[i].ID, msgs[i], want[i])
		}
	}
	view := strings.Join(plainView(tr), "\n")
	if !strings.Contains(view, "the answer so far and more") {
		t.Fatalf("the reply in flight does not show its text and its delta:\n%s", view)
	}
}
