package transcript

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"parley/api"
	"parley/conversation"
)

// twoBranches returns two paths of one conversation: long is n messages;
// short shares its first at messages and then has an alternative of
// long[at] (a user message, edited) and a reply of its own. Both carry the
// alternative marks the conversation gives them (‹ 1/2 › and ‹ 2/2 ›).
func twoBranches(n, at int) (long, short []conversation.Message) {
	long = conversationOf(n, 21)
	for i := range long {
		if long[i].Role == api.RoleAssistant && i%3 == 1 {
			long[i].Text += "\n\n" + reply(i)
		}
	}
	long[at].AltIndex, long[at].AltCount = 0, 2
	edited := long[at]
	edited.ID, edited.Text, edited.AltIndex = n+1, "Edited: "+edited.Text, 1
	answer := conversation.Message{ID: n + 2, Role: api.RoleAssistant, Model: "gpt-4o", Version: 1,
		Text: "The short branch's answer.\n\n" + reply(n+2), FinishReason: "stop"}
	short = append(slices.Clone(long[:at]), edited, answer)
	return long, short
}

// wholeTranscript is every line of every message, rendered, with the code
// labels, the code blocks the transcript numbers and the heights it keeps.
func wholeTranscript(t *testing.T, tr *Transcript) string {
	t.Helper()
	renderAll(t, tr)
	var b strings.Builder
	for i := range tr.list.items {
		fmt.Fprintf(&b, "-- message %d, height %d\n", tr.list.items[i].id(), tr.list.hs.get(i))
		b.WriteString(strings.Join(plainItem(tr, i), "\n"))
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "-- labels %v\n-- %d code blocks\n", shownLabels(tr), tr.CodeBlocks())
	for n := 1; n <= tr.CodeBlocks(); n++ {
		code, _ := tr.CodeBlock(n)
		fmt.Fprintf(&b, "[%d] %s\n", n, code)
	}
	return b.String()
}

// fresh is what a transcript reset to msgs shows, with the same selection.
func freshOf(t *testing.T, msgs []conversation.Message, selected int) string {
	t.Helper()
	ref := newTest(t, 100, 30)
	ref.List().SetSelected(selected)
	ref.Reset(msgs)
	return wholeTranscript(t, ref)
}

// TestSwitchPathShowsWhatResetShows: switching between two branches back
// and forth, with items taken back from the shelf, shows every message,
// label, code block and height exactly as a transcript opened on that
// path does; the selection's mark moves with the cursor.
func TestSwitchPathShowsWhatResetShows(t *testing.T) {
	long, short := twoBranches(120, 40)
	tr := newTest(t, 100, 30)
	tr.Reset(long)
	tr.List().SetSelected(long[40].ID)
	tr.List().Reveal(long[40].ID)
	settle(t, tr)
	steps := []struct {
		path []conversation.Message
		sel  int
	}{
		{short, short[40].ID},
		{long, long[40].ID},
		{short, short[41].ID},
		{long, long[40].ID},
	}
	for k, s := range steps {
		tr.List().SetSelected(s.sel)
		tr.SwitchPath(s.path)
		tr.List().Reveal(s.sel)
		settle(t, tr)
		if got, want := wholeTranscript(t, tr), freshOf(t, s.path, s.sel); got != want {
			t.Fatalf("switch %d shows another transcript than a fresh one:\n%s", k+1, firstDiff(got, want))
		}
		if tr.List().Len() != len(s.path) {
			t.Fatalf("switch %d: %d messages, want %d", k+1, tr.List().Len(), len(s.path))
		}
	}
}

// TestSwitchPathRendersAChangedMessageAgain: a message taken back whose
// text changed while it was off the path (a newer Version) shows the new
// text; so does the retry hint, which only the last message has.
func TestSwitchPathRendersAChangedMessageAgain(t *testing.T) {
	long, short := twoBranches(20, 6)
	tr := newTest(t, 100, 30)
	tr.Reset(long)
	settle(t, tr)
	tr.SwitchPath(short)
	settle(t, tr)

	long[10].Text, long[10].Version = "Rewritten while away.", 2
	last := &long[len(long)-1]
	last.State, last.Version = conversation.StateInterrupted, 2
	tr.SwitchPath(long)
	settle(t, tr)
	if got, want := wholeTranscript(t, tr), freshOf(t, long, 0); got != want {
		t.Fatalf("a changed message is shown as it was:\n%s", firstDiff(got, want))
	}
	if !strings.Contains(wholeTranscript(t, tr), "Rewritten while away.") {
		t.Fatal("the new text is not shown")
	}
}

// TestSwitchPathRetryHintFollowsTheLastMessage: a failed reply shows the
// retry hint only while it is the last message of the path on screen,
// also when it is taken back on a path that goes on after it.
func TestSwitchPathRetryHintFollowsTheLastMessage(t *testing.T) {
	q := conversation.Message{ID: 1, Role: api.RoleUser, Text: "Why?", Version: 1}
	failed := conversation.Message{ID: 2, Role: api.RoleAssistant, Model: "gpt-4o", Version: 1,
		State: conversation.StateFailed, Err: "the connection to the gateway was reset"}
	more := []conversation.Message{q, failed,
		{ID: 3, Role: api.RoleUser, Text: "Again?", Version: 1},
		{ID: 4, Role: api.RoleAssistant, Model: "gpt-4o", Text: "Yes.", Version: 1, FinishReason: "stop"}}
	short := more[:2]
	tr := newTest(t, 100, 30)
	tr.Reset(short)
	settle(t, tr)
	for k, path := range [][]conversation.Message{more, short, more} {
		tr.SwitchPath(path)
		settle(t, tr)
		ref := newTest(t, 100, 30)
		ref.Reset(path)
		if got, want := wholeTranscript(t, tr), wholeTranscript(t, ref); got != want {
			t.Fatalf("switch %d: the retry hint is not where a fresh transcript has it:\n%s", k+1, firstDiff(got, want))
		}
	}
	if strings.Contains(wholeTranscript(t, tr), "to retry") {
		t.Fatal("the failed reply keeps its retry hint with messages after it")
	}
	tr.SwitchPath(short)
	if !strings.Contains(wholeTranscript(t, tr), "to retry") {
		t.Fatal("the failed reply has no retry hint as the last message")
	}
}

// TestSwitchPathWindowLandsWhereThePathsPart: with the window at the
// bottom of a long branch, switching to a branch that parts at message 6
// shows that message (the one switched to), not the top or a place that
// no longer exists.
func TestSwitchPathWindowLandsWhereThePathsPart(t *testing.T) {
	long, short := twoBranches(400, 6)
	tr := newTest(t, 100, 30)
	tr.Reset(long)
	settle(t, tr)
	tr.SwitchPath(short)
	settle(t, tr)
	view := strings.Join(plainView(tr), "\n")
	if !strings.Contains(view, "Edited:") {
		t.Fatalf("the window does not show the message switched to:\n%s", view)
	}
	// Back to the long branch from the short one's end: its window starts
	// at the message where the paths part too.
	tr.SwitchPath(long)
	settle(t, tr)
	if view := strings.Join(plainView(tr), "\n"); !strings.Contains(view, firstWords(long[6].Text)) {
		t.Fatalf("the window does not show where the paths part:\n%s", view)
	}
}

// TestSwitchPathShelfIsBounded: switching through many branches keeps at
// most shelfRuns runs and shelfItems items of the paths left, and an item
// is never on the shelf while it is on the path.
func TestSwitchPathShelfIsBounded(t *testing.T) {
	base := conversationOf(30, 5)
	tr := newTest(t, 80, 24)
	tr.Reset(base)
	next := 1000
	for k := range 3 * shelfRuns {
		// A branch from message k of 2,000 messages of its own.
		path := slices.Clone(base[:k%20+1])
		for range 2000 {
			next++
			path = append(path, conversation.Message{ID: next, Role: api.RoleUser, Text: fmt.Sprintf("branch %d", k), Version: 1})
		}
		tr.SwitchPath(path)
		if len(tr.shelf.runs) > shelfRuns || tr.shelf.n > shelfItems {
			t.Fatalf("after %d switches the shelf holds %d runs and %d items", k+1, len(tr.shelf.runs), tr.shelf.n)
		}
		n := 0
		for _, run := range tr.shelf.runs {
			n += len(run)
			for _, it := range run {
				if i, ok := tr.list.pos(it.id()); ok && tr.list.items[i] == it {
					t.Fatalf("message %d is on the path and on the shelf", it.id())
				}
			}
		}
		if n != tr.shelf.n {
			t.Fatalf("the shelf counts %d items and holds %d", tr.shelf.n, n)
		}
	}
	tr.Reset(base)
	if tr.shelf.n != 0 || len(tr.shelf.runs) != 0 {
		t.Fatal("Reset keeps the shelf of another conversation")
	}
}

// TestSwitchPathPictureComesBack: a sent image on a branch left before
// its picture was made, and taken back, shows the picture, without asking
// for it again.
func TestSwitchPathPictureComesBack(t *testing.T) {
	long, short := twoBranches(12, 4)
	short[4] = sentImage(t, short[4].ID)
	short[4].AltIndex, short[4].AltCount, short[4].Version = 1, 2, 1
	tr := newTest(t, 100, 40)
	tr.SetPictures(true)
	tr.Reset(long)
	settle(t, tr)
	tr.TakePictureRequests()
	tr.SwitchPath(short)
	settle(t, tr)
	reqs := tr.TakePictureRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d pictures asked for on the branch with one image", len(reqs))
	}
	pic := make([]string, reqs[0].Key.Rows)
	for i := range pic {
		pic[i] = strings.Repeat("▀", reqs[0].Key.Cols)
	}
	// It arrives while its branch is off the path, and is there when the
	// branch comes back.
	tr.SwitchPath(long)
	settle(t, tr)
	tr.SetPicture(reqs[0].Key, pic)
	tr.SwitchPath(short)
	tr.List().Reveal(short[4].ID)
	settle(t, tr)
	if n := len(tr.TakePictureRequests()); n != 0 {
		t.Fatalf("the picture was asked for again (%d requests)", n)
	}
	i, _ := tr.list.pos(short[4].ID)
	if got := strings.Count(strings.Join(plainItem(tr, i), "\n"), "▀"); got != len(pic)*reqs[0].Key.Cols {
		t.Fatalf("the image's picture is not back under it (%d half blocks):\n%s", got, strings.Join(plainItem(tr, i), "\n"))
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, a, b)
		}
	}
	return "(equal)"
}
