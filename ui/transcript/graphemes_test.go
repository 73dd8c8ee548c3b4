package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/ui/cells"
)

const emojiReply = "Family: 👨\u200d👩\u200d👧 and 👍🏽, a keycap 1\ufe0f\u20e3 and ❤\ufe0f, Thai กำ.\n\n- also in a list: 👩🏽\u200d💻\n"

// TestEmojiSequencesShowEveryPart: on a terminal that measures code points
// (the default until the root reports mode 2027), a reply's emoji
// sequences show as their parts, every one, taking the cells the terminal
// gives them, so the root's ForWcWidth cuts nothing (issue 15 §4: 👨‍👩‍👧
// was shown as 👨); streamed in pieces that split the sequences, the same.
// On a terminal that measures grapheme clusters they stay whole.
func TestEmojiSequencesShowEveryPart(t *testing.T) {
	check := func(t *testing.T, tr *Transcript, i int, want []string) {
		t.Helper()
		it := tr.list.items[i]
		var text strings.Builder
		for k := range it.height() {
			l := it.line(k)
			if !tr.Graphemes() {
				if g, w := ansi.StringWidth(l), ansi.StringWidthWc(l); g != w {
					t.Fatalf("line %d measures %d by grapheme and %d by code point: %q", k, g, w, l)
				}
				if cut := cells.ForWcWidth(l); cut != l {
					t.Fatalf("ForWcWidth still changes line %d: %q", k, l)
				}
			}
			l = strings.ReplaceAll(ansi.Strip(l), "\u200b", "")
			if !tr.Graphemes() {
				// A joiner left between parts takes no cell.
				l = strings.ReplaceAll(l, "\u200d", "")
			}
			text.WriteString(l)
		}
		for _, w := range want {
			if !strings.Contains(text.String(), w) {
				t.Fatalf("%q is not shown:\n%s", w, text.String())
			}
		}
	}
	parts := []string{"👨👩👧", "👍🏽", "1\u20e3", "❤", "กำ", "👩🏽💻"}
	whole := []string{"👨\u200d👩\u200d👧", "👍🏽", "1\ufe0f\u20e3", "❤\ufe0f", "👩🏽\u200d💻"}

	tr := patient(newTest(t, 60, 20))
	tr.Append(userMsg(1, "emoji 👨\u200d👩\u200d👧 please"))
	tr.Append(streamingMsg(2))
	for _, r := range emojiReply {
		tr.AppendDelta(2, string(r)) // every sequence split
		tickRun(tr)
	}
	check(t, tr, 1, parts)
	done := streamingMsg(2)
	done.Text, done.State, done.FinishReason = emojiReply, conversation.StateDone, "stop"
	tr.Update(done)
	settle(t, tr)
	check(t, tr, 0, []string{"👨👩👧 please"})
	check(t, tr, 1, parts)

	again := patient(newTest(t, 60, 20))
	again.Reset([]conversation.Message{userMsg(1, "hi"), replyMsg(2, emojiReply)})
	settle(t, again)
	check(t, again, 1, parts)

	again.SetGraphemes(true)
	settle(t, again)
	check(t, again, 1, whole)
	again.SetGraphemes(false)
	settle(t, again)
	check(t, again, 1, parts)
}
