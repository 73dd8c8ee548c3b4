package transcript

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"parley/conversation"
)

var labelRE = regexp.MustCompile(`^\s*\[(\d+)\]`)

// shownLabels returns the code labels of every message, in order.
func shownLabels(tr *Transcript) []string {
	var out []string
	for i := range tr.list.items {
		for _, l := range plainItem(tr, i) {
			if m := labelRE.FindStringSubmatch(l); m != nil {
				out = append(out, m[1])
			}
		}
	}
	return out
}

func reply(i int) string {
	return fmt.Sprintf("Reply %d.\n\n```go\nfmt.Println(%d)\n```\n\nand\n\n```sh\necho %d\n```\n", i, i, i)
}

func wantLabels(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i + 1)
	}
	return out
}

// TestCodeBlocksNumberedThroughTheTranscript: code labels count every code
// block from the first message (issue 15 §14), [n] is block n wherever it
// is, and CodeBlock(n) returns the code that label stands over; they stay
// so when a reply streams in, when messages are removed and when the
// conversation is opened again.
func TestCodeBlocksNumberedThroughTheTranscript(t *testing.T) {
	tr := newTest(t, 80, 200)
	var msgs []conversation.Message
	for i := 1; i <= 3; i++ {
		msgs = append(msgs, userMsg(2*i-1, "question"), replyMsg(2*i, reply(i)))
	}
	tr.Reset(msgs)
	settle(t, tr)
	check := func(n int, what string) {
		t.Helper()
		if got := shownLabels(tr); !slices.Equal(got, wantLabels(n)) {
			t.Fatalf("%s: labels %q, want 1 to %d", what, got, n)
		}
		if tr.CodeBlocks() != n {
			t.Fatalf("%s: CodeBlocks() = %d, want %d", what, tr.CodeBlocks(), n)
		}
		for k := 1; k <= n; k++ {
			code, ok := tr.CodeBlock(k)
			reply, block := (k+1)/2, k%2
			want := fmt.Sprintf("echo %d\n", reply)
			if block == 1 {
				want = fmt.Sprintf("fmt.Println(%d)\n", reply)
			}
			if !ok || code != want {
				t.Fatalf("%s: CodeBlock(%d) = %q, %v; want %q", what, k, code, ok, want)
			}
		}
		if _, ok := tr.CodeBlock(n + 1); ok {
			t.Fatalf("%s: CodeBlock(%d) exists", what, n+1)
		}
		if _, ok := tr.CodeBlock(0); ok {
			t.Fatalf("%s: CodeBlock(0) exists", what)
		}
	}
	check(6, "opened")

	// A reply streams in: its blocks go on from 7.
	tr.Append(userMsg(7, "more"))
	tr.Append(streamingMsg(8))
	r := reply(4)
	for i := 0; i < len(r); i += 5 {
		tr.AppendDelta(8, r[i:min(i+5, len(r))])
		tickRun(tr)
	}
	done := streamingMsg(8)
	done.Text, done.State, done.FinishReason = r, conversation.StateDone, "stop"
	tr.Update(done)
	settle(t, tr)
	check(8, "after a streamed reply")

	// Removing the second exchange renumbers what follows it.
	tr.Remove([]int{3, 4})
	settle(t, tr)
	if got := shownLabels(tr); !slices.Equal(got, wantLabels(6)) {
		t.Fatalf("after a removal: labels %q", got)
	}
	if code, _ := tr.CodeBlock(3); code != "fmt.Println(3)\n" {
		t.Fatalf("after a removal, CodeBlock(3) = %q", code)
	}

	// An edited earlier message with another block renumbers the rest.
	edited := replyMsg(2, reply(1)+"\n```\nextra\n```\n")
	tr.Update(edited)
	settle(t, tr)
	if got := shownLabels(tr); !slices.Equal(got, wantLabels(7)) {
		t.Fatalf("after an edit: labels %q", got)
	}
	if code, _ := tr.CodeBlock(3); code != "extra\n" {
		t.Fatalf("after an edit, CodeBlock(3) = %q", code)
	}
	if code, _ := tr.CodeBlock(4); code != "fmt.Println(3)\n" {
		t.Fatalf("after an edit, CodeBlock(4) = %q", code)
	}
}

// TestCodeBlocksOfLongReplies: a reply too long to count on the Update
// goroutine gets an estimate, and its rendering the exact count; the
// labels after it follow.
func TestCodeBlocksOfLongReplies(t *testing.T) {
	long := strings.Repeat("Some words to make this reply long enough. ", 120) +
		"\n\n    indented code, which the estimate misses\n\n```go\nafter()\n```\n"
	tr := newTest(t, 80, 300)
	tr.Reset([]conversation.Message{userMsg(1, "q"), replyMsg(2, long), userMsg(3, "q"), replyMsg(4, reply(9))})
	if tr.list.items[1].codes != 1 {
		t.Fatalf("the estimate for the long reply is %d blocks, want 1 (fences only)", tr.list.items[1].codes)
	}
	settle(t, tr)
	if got := shownLabels(tr); !slices.Equal(got, wantLabels(4)) {
		t.Fatalf("labels %q, want 1 to 4", got)
	}
	if code, _ := tr.CodeBlock(3); code != "fmt.Println(9)\n" {
		t.Fatalf("CodeBlock(3) = %q", code)
	}
}
