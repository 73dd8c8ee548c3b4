package transcript

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"parley/conversation"
)

func TestFollowsBottomWhileStreaming(t *testing.T) {
	tr := newTest(t, 50, 10)
	tr.Reset(longConversation(6))
	tr.Append(userMsg(7, "go on"))
	tr.Append(streamingMsg(8))
	for i := range 30 {
		tr.AppendDelta(8, fmt.Sprintf("Line %d of the answer.\n\n", i))
		tickRun(tr)
		if !tr.List().AtBottom() || tr.List().NewBelow() {
			t.Fatalf("delta %d: not following (at bottom %v, new below %v)", i, tr.List().AtBottom(), tr.List().NewBelow())
		}
		v := plainView(tr)
		if last := v[len(v)-1]; !strings.Contains(last, fmt.Sprintf("Line %d of", i)) {
			t.Fatalf("delta %d: last view line %q, want the newest text", i, last)
		}
	}
}

func TestScrolledUpStaysAnchoredAndShowsBadge(t *testing.T) {
	tr := newTest(t, 50, 10)
	tr.Reset(longConversation(6))
	tr.Append(userMsg(7, "go on"))
	tr.Append(streamingMsg(8))
	tr.AppendDelta(8, "First paragraph.\n\n")
	tickRun(tr)

	tr.List().LineUp(12)
	if tr.List().AtBottom() || tr.List().Following() {
		t.Fatal("still following after scrolling up")
	}
	if tr.List().NewBelow() {
		t.Fatal("badge before any new text")
	}
	before := plainView(tr)

	for i := range 20 {
		tr.AppendDelta(8, fmt.Sprintf("More text %d.\n\n", i))
		tickRun(tr)
	}
	after := plainView(tr)
	if !tr.List().NewBelow() {
		t.Fatal("no new-text badge after text arrived below")
	}
	// The text the user reads did not move; only the last line carries the badge.
	if !slices.Equal(before[:len(before)-1], after[:len(after)-1]) {
		t.Fatalf("window moved while scrolled up:\nbefore %q\nafter  %q", before, after)
	}
	if last := after[len(after)-1]; !strings.Contains(last, "↓ new text below (end)") {
		t.Fatalf("last line %q lacks the badge", last)
	}
	checkGeometry(t, tr)

	// A new message appended below (the user is not sending) keeps the place too.
	done := streamingMsg(8)
	done.Text = tr.list.items[tr.List().Len()-1].live.raw.String()
	done.State = conversation.StateDone
	tr.Update(done)
	if got := plainView(tr); !slices.Equal(before[:len(before)-1], got[:len(got)-1]) {
		t.Fatalf("window moved when the reply finished:\nbefore %q\nafter  %q", before, got)
	}

	// Back at the bottom: following resumes, the badge goes.
	tr.List().PageDown()
	for !tr.List().AtBottom() {
		tr.List().PageDown()
	}
	if tr.List().NewBelow() || !tr.List().Following() {
		t.Fatalf("at bottom: new below %v, following %v", tr.List().NewBelow(), tr.List().Following())
	}
	v := plainView(tr)
	if strings.Contains(strings.Join(v, "\n"), "new text below") {
		t.Fatal("badge still shown at the bottom")
	}
	tr.Append(streamingMsg(9))
	tr.AppendDelta(9, "Fresh reply text")
	tickRun(tr)
	if v := plainView(tr); !strings.Contains(v[len(v)-1], "Fresh reply text") {
		t.Fatalf("not following after returning to the bottom: %q", v)
	}
}

func TestSendingReturnsToBottom(t *testing.T) {
	tr := newTest(t, 50, 10)
	tr.Reset(longConversation(8))
	tr.List().Top()
	if tr.List().AtBottom() {
		t.Fatal("Top left the window at the bottom")
	}
	tr.Append(userMsg(100, "a new question"))
	if !tr.List().AtBottom() || !tr.List().Following() {
		t.Fatal("sending a message did not return to the bottom")
	}
	if v := plainView(tr); !strings.Contains(v[len(v)-1], "a new question") {
		t.Fatalf("last line %q", v[len(v)-1])
	}
}

func TestScrollMovesByLines(t *testing.T) {
	tr := newTest(t, 50, 8)
	msgs := longConversation(10)
	tr.Reset(msgs)
	// The full transcript, line by line, from a fresh render.
	var all []string
	for i := range tr.list.items {
		tr.r.renderItem(tr.list.items[i])
		all = append(all, plainItem(tr, i)...)
	}
	tr.Reset(msgs)
	tr.List().Top()
	if got := plainView(tr); !slices.Equal(got, all[:8]) {
		t.Fatalf("top:\n%q\nwant\n%q", got, all[:8])
	}
	tr.List().LineDown(3)
	if got := plainView(tr); !slices.Equal(got, all[3:11]) {
		t.Fatalf("line down 3:\n%q\nwant\n%q", got, all[3:11])
	}
	tr.List().PageDown()
	if got := plainView(tr); !slices.Equal(got, all[10:18]) {
		t.Fatalf("page down:\n%q\nwant\n%q", got, all[10:18])
	}
	tr.List().HalfPageUp()
	if got := plainView(tr); !slices.Equal(got, all[6:14]) {
		t.Fatalf("half page up:\n%q\nwant\n%q", got, all[6:14])
	}
	tr.List().WheelDown()
	if got := plainView(tr); !slices.Equal(got, all[9:17]) {
		t.Fatalf("wheel down:\n%q\nwant\n%q", got, all[9:17])
	}
	tr.List().Bottom()
	if got := plainView(tr); !slices.Equal(got, all[len(all)-8:]) {
		t.Fatalf("bottom:\n%q\nwant\n%q", got, all[len(all)-8:])
	}
	if tr.List().ScrollPercent() != 100 {
		t.Fatalf("scroll percent at bottom %d", tr.List().ScrollPercent())
	}
	// From the bottom, scrolling up into messages that are not rendered yet
	// (Reset renders only the window) moves by exact lines.
	tr.Reset(msgs)
	tr.List().LineUp(25)
	n := len(all)
	if got := plainView(tr); !slices.Equal(got, all[n-8-25:n-25]) {
		t.Fatalf("line up 25 from bottom:\n%q\nwant\n%q", got, all[n-8-25:n-25])
	}
	tr.List().WheelUp()
	if got := plainView(tr); !slices.Equal(got, all[n-8-28:n-28]) {
		t.Fatalf("wheel up:\n%q\nwant\n%q", got, all[n-8-28:n-28])
	}
	tr.List().LineUp(10_000)
	if got := plainView(tr); !slices.Equal(got, all[:8]) {
		t.Fatalf("far up:\n%q", got)
	}
	if tr.List().ScrollPercent() != 0 {
		t.Fatalf("scroll percent at top %d", tr.List().ScrollPercent())
	}
	tr.List().LineDown(10_000)
	if !tr.List().Following() {
		t.Fatal("scrolling past the end does not follow")
	}
}

func TestRemoveKeepsPlace(t *testing.T) {
	tr := newTest(t, 50, 8)
	tr.Reset(longConversation(10))
	tr.List().Top()
	tr.List().LineDown(2)
	before := plainView(tr)
	tr.Remove([]int{9, 10})
	if got := plainView(tr); !slices.Equal(got, before) {
		t.Fatalf("removing messages below moved the window:\n%q\nwant\n%q", got, before)
	}
	// Removing the message the window starts in moves to the next one.
	tr.Remove([]int{1})
	if got := plainView(tr); !strings.Contains(strings.Join(got, "\n"), "Answer 2 paragraph 0") {
		t.Fatalf("after removing the anchor: %q", got)
	}
	tr.Remove([]int{2, 3, 4, 5, 6, 7, 8})
	if tr.List().Len() != 0 || !tr.List().Following() {
		t.Fatalf("len %d following %v after removing everything", tr.List().Len(), tr.List().Following())
	}
	checkGeometry(t, tr)
}

func TestEmptyTranscript(t *testing.T) {
	tr := newTest(t, 30, 5)
	tr.List().PageUp()
	tr.List().LineDown(3)
	tr.List().Top()
	if !tr.List().AtBottom() || tr.List().NewBelow() || tr.tick() {
		t.Fatal("empty transcript is not at rest")
	}
	checkGeometry(t, tr)
}
