package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/conversation"
	"parley/ui/uictx"
)

func userMsg(id int, text string) conversation.Message {
	return conversation.Message{ID: id, Role: api.RoleUser, Text: text}
}

func replyMsg(id int, text string) conversation.Message {
	return conversation.Message{ID: id, Role: api.RoleAssistant, Model: "gpt-4o", Text: text, FinishReason: "stop"}
}

func streamingMsg(id int) conversation.Message {
	return conversation.Message{ID: id, Role: api.RoleAssistant, Model: "gpt-4o", State: conversation.StateStreaming}
}

// plainView returns the view without colours, one string per line, with
// trailing spaces trimmed.
func plainView(tr *Transcript) []string {
	lines := strings.Split(ansi.Strip(tr.List().View()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// plainItem returns the lines of item i without colours.
func plainItem(tr *Transcript, i int) []string {
	it := tr.list.items[i]
	out := make([]string, it.height())
	for k := range out {
		out[k] = strings.TrimRight(ansi.Strip(it.line(k)), " ")
	}
	return out
}

// checkGeometry fails unless View has exactly h lines of exactly w cells.
func checkGeometry(t *testing.T, tr *Transcript) {
	t.Helper()
	w, h := tr.List().Size()
	lines := strings.Split(tr.List().View(), "\n")
	if len(lines) != h {
		t.Fatalf("View has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("View line %d is %d cells wide, want %d: %q", i, got, w, l)
		}
	}
}

// streamAll appends text as deltas to reply id and ticks after each,
// running a background render the tick starts at once.
func streamAll(tr *Transcript, id int, deltas []string) {
	for _, d := range deltas {
		tr.AppendDelta(id, d)
		if cmd := tr.Tick(); cmd != nil {
			tr.HandleMsg(cmd())
		}
	}
}

func longConversation(n int) []conversation.Message {
	msgs := make([]conversation.Message, n)
	for i := range msgs {
		if i%2 == 0 {
			msgs[i] = userMsg(i+1, fmt.Sprintf("question %d", i+1))
		} else {
			var b strings.Builder
			for k := range 6 {
				fmt.Fprintf(&b, "Answer %d paragraph %d.\n\n", i+1, k)
			}
			msgs[i] = replyMsg(i+1, b.String())
		}
	}
	return msgs
}

func TestUserAndReplyAreDistinct(t *testing.T) {
	tr := newTest(t, 60, 20)
	tr.Append(userMsg(1, "How do I reverse a slice?"))
	tr.Append(replyMsg(2, "Use `slices.Reverse`:\n\n```go\nslices.Reverse(s)\n```"))
	got := strings.Join(plainView(tr), "\n")
	for _, want := range []string{"┃ You", "┃ How do I reverse a slice?", "gpt-4o", "  Use slices.Reverse:", "[1] go", "slices.Reverse(s)"} {
		if !strings.Contains(got, want) {
			t.Errorf("view lacks %q:\n%s", want, got)
		}
	}
	// The reply's body is not under the user bar.
	for _, l := range plainItem(tr, 1) {
		if strings.HasPrefix(l, "┃") {
			t.Errorf("reply line carries the user bar: %q", l)
		}
	}
	checkGeometry(t, tr)
}

func TestUserTextShownAsTyped(t *testing.T) {
	tr := newTest(t, 40, 20)
	tr.Append(userMsg(1, "# not a heading\n**not bold** &#27; &amp;\n\n\tindented\x1b[2J"))
	lines := plainItem(tr, 0)
	want := []string{"", "┃ You", "┃ # not a heading", "┃ **not bold** &#27; &amp;", "┃", "┃     indented␛[2J"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("user message lines:\n%q\nwant\n%q", lines, want)
	}
}

func TestAttachmentChips(t *testing.T) {
	tr := newTest(t, 80, 20)
	m := userMsg(1, "what is this?")
	m.Attachments = []api.Attachment{
		{Name: "shot.png", Width: 2048, Height: 1536, Bytes: 1_200_000, Data: []byte{1}},
		{Name: "big.jpg", Width: 2048, Height: 1536, Bytes: 900_000, Resized: true, OrigWidth: 4032, OrigHeight: 3024, Data: []byte{1}},
		{URL: "https://example.com/cat.png"},
	}
	tr.Append(m)
	got := strings.Join(plainItem(tr, 0), "\n")
	for _, want := range []string{
		"▣ shot.png · 2048×1536 · 1.2 MB",
		"▣ big.jpg · 2048×1536 · 900 KB · scaled down from 4032×3024",
		"▣ https://example.com/cat.png · link",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("chips lack %q:\n%s", want, got)
		}
	}
}

func TestReplyStates(t *testing.T) {
	tr := newTest(t, 60, 30)
	tr.Append(userMsg(1, "hi"))
	tr.Append(streamingMsg(2))
	tr.AppendDelta(2, "Partial answer")
	tickRun(tr)
	if got := strings.Join(plainItem(tr, 1), "\n"); !strings.Contains(got, "gpt-4o · writing…") || !strings.Contains(got, "Partial answer") {
		t.Fatalf("streaming reply:\n%s", got)
	}

	m := streamingMsg(2)
	m.Text = "Partial answer"
	m.State = conversation.StateInterrupted
	tr.Update(m)
	got := strings.Join(plainItem(tr, 1), "\n")
	if !strings.Contains(got, "Partial answer") || !strings.Contains(got, "■ interrupted · ctrl+r to regenerate") || strings.Contains(got, "writing") {
		t.Fatalf("interrupted reply:\n%s", got)
	}

	tr.Append(userMsg(3, "again"))
	tr.Append(streamingMsg(4))
	tr.AppendDelta(4, "Half")
	f := streamingMsg(4)
	f.Text = "Half"
	f.State = conversation.StateFailed
	f.Err = "The gateway answered 500 Internal Server Error: upstream \x1b]0;pwned\x07 timeout."
	tr.Update(f)
	lines := plainItem(tr, 3)
	got = strings.Join(lines, "\n")
	for _, want := range []string{"Half", "✗ The gateway answered 500", "ctrl+r to retry", "␛]0;pwned␇"} {
		if !strings.Contains(got, want) {
			t.Errorf("failed reply lacks %q:\n%s", want, got)
		}
	}
	// The error text is drawn in the error style: its line carries colour.
	for k := 0; k < tr.list.items[3].height(); k++ {
		if strings.Contains(ansi.Strip(tr.list.items[3].line(k)), "✗") && !strings.Contains(tr.list.items[3].line(k), "\x1b[") {
			t.Errorf("error line is not styled: %q", tr.list.items[3].line(k))
		}
	}

	for _, c := range []struct{ reason, note string }{
		{"length", "reply cut off: the model hit its length limit"},
		{"content_filter", "reply stopped by the gateway's content filter"},
	} {
		tr.Append(userMsg(10, "x"))
		r := replyMsg(11, "Some text")
		r.FinishReason = c.reason
		tr.Append(r)
		if got := strings.Join(plainItem(tr, tr.List().Len()-1), "\n"); !strings.Contains(got, c.note) {
			t.Errorf("finish_reason %q: no note %q:\n%s", c.reason, c.note, got)
		}
		tr.Remove([]int{10, 11})
	}
	checkGeometry(t, tr)
}

func TestRetryHintFollowsKeyMap(t *testing.T) {
	ctx := testContext(50, 20)
	ctx.Keys.Retry.SetKeys("f5")
	ctx.Keys.Retry.SetHelp("f5", "retry")
	tr := New(ctx)
	tr.SetSize(50, 20)
	m := streamingMsg(1)
	tr.Append(m)
	m.State, m.Err = conversation.StateFailed, "boom"
	tr.Update(m)
	got := strings.Join(plainItem(tr, 0), "\n")
	if !strings.Contains(got, "f5 to retry") || strings.Contains(got, "ctrl+r") || strings.Contains(got, "(empty reply)") {
		t.Fatalf("hint does not follow the key map:\n%s", got)
	}
	// A key map change reaches the hint on Restyle.
	ctx.Keys.Retry.SetHelp("ctrl+g", "retry")
	tr.Restyle()
	if got := strings.Join(plainItem(tr, 0), "\n"); !strings.Contains(got, "ctrl+g to retry") {
		t.Fatalf("hint after Restyle:\n%s", got)
	}
}

func TestEmptyReply(t *testing.T) {
	tr := newTest(t, 40, 10)
	tr.Append(replyMsg(1, ""))
	if got := strings.Join(plainItem(tr, 0), "\n"); !strings.Contains(got, "(empty reply)") {
		t.Fatalf("empty reply:\n%s", got)
	}
}

// TestWidthBound checks that every cached line and every View line is
// exactly the width, for wide and zero-width characters, long words, long
// code lines and narrow screens.
func TestWidthBound(t *testing.T) {
	hard := strings.Join([]string{
		"漢字とかなの混じった文章はどう折り返されるのでしょうか、全角文字は二セル幅です。",
		"Emoji 👩‍👩‍👧‍👦 family, flags 🇯🇵🇫🇷, thumbs 👍🏽 and a heart ❤️ in a line that goes on and on.",
		"Combining: e\u0301e\u0301e\u0301 a\u0308o\u0308u\u0308 — Zalgo z\u0351\u0352\u0353a\u0354l\u0355g\u0356o",
		"averyveryveryveryveryveryveryveryveryveryveryveryveryveryverylongwordwithoutanybreaks",
		"```\n" + strings.Repeat("x := \"長い行\"; ", 12) + "\n\tindented with a tab\n```",
		"| 列 | 説明 |\n|---|---|\n| 😀 | 表の中の絵文字と漢字 |",
		"- item with `inline code` and 中文\n- ✔ done",
	}, "\n\n")
	for _, w := range []int{1, 4, 12, 23, 40, 57, 80, 133} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			tr := newTest(t, w, 12)
			u := userMsg(1, hard)
			u.Attachments = []api.Attachment{{Name: "スクリーンショット 2024-01-01 の画像ファイル名.png", Width: 10, Height: 10, Bytes: 10, Data: []byte{1}}}
			tr.Append(u)
			r := replyMsg(2, hard)
			r.Model = "a-model-name-that-is-far-too-long-for-a-narrow-terminal-长\nwith a newline"
			r.FinishReason = "length"
			tr.Append(r)
			tr.Append(streamingMsg(3))
			streamAll(tr, 3, splitDeltas(hard, 7, 1))
			f := streamingMsg(4)
			tr.Append(f)
			f.State, f.Err = conversation.StateFailed, hard
			tr.Update(f)
			for i, it := range tr.list.items {
				for k := 0; k < it.height(); k++ {
					if got := ansi.StringWidth(it.line(k)); got != w {
						t.Fatalf("item %d line %d is %d cells, want %d: %q", i, k, got, w, it.line(k))
					}
				}
			}
			tr.List().Top()
			for range 200 {
				checkGeometry(t, tr)
				if tr.List().AtBottom() {
					break
				}
				tr.List().PageDown()
			}
		})
	}
}

// TestWrappedCodeLineKeepsIndent: at 40 columns a code line longer than the
// width wraps, and every part stands under the code (reply indent plus the
// code block's indent), finished and while streaming.
func TestWrappedCodeLineKeepsIndent(t *testing.T) {
	const code = `fmt.Println("a very long line of code that goes past the edge of the screen")`
	text := "Code:\n\n```go\n" + code + "\nx := 1\n```\n\ndone"
	check := func(what string, lines []string) {
		t.Helper()
		var rows []string
		for _, l := range lines {
			if len(rows) > 0 || strings.Contains(l, "fmt.Println") {
				rows = append(rows, l)
			}
			if strings.Contains(l, "x := 1") {
				break
			}
		}
		if len(rows) < 3 {
			t.Fatalf("%s: the code line did not wrap at 40 columns:\n%s", what, strings.Join(lines, "\n"))
		}
		for _, l := range rows {
			if !strings.HasPrefix(l, "   ") || strings.HasPrefix(l, "    ") {
				t.Fatalf("%s: code row %q is not indented by exactly 3 (reply 2, code block 1):\n%s", what, l, strings.Join(rows, "\n"))
			}
		}
		if got := strings.Join(strings.Fields(strings.Join(rows, " ")), " "); !strings.Contains(got, code) {
			t.Fatalf("%s: the code reads %q", what, got)
		}
	}
	for _, ctx := range []func(int, int) *uictx.Context{testContext, noColorContext} {
		tr := New(ctx(40, 20))
		tr.SetSize(40, 20)
		tr.Append(replyMsg(1, text))
		check("finished", plainItem(tr, 0))

		tr = New(ctx(40, 20))
		tr.SetSize(40, 20)
		tr.Append(streamingMsg(1))
		tr.AppendDelta(1, text[:len(text)-len("```\n\ndone")])
		tickRun(tr)
		check("streaming", plainItem(tr, 0))
	}
}
