package transcript

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/termsafe"
	"parley/ui/mdstream"
)

// TestReadingWidth: at 200 columns prose is laid out at most
// MaxProseWidth wide (replies and the user's text), a table as wide as
// its content; with the cap off, text uses the full width.
func TestReadingWidth(t *testing.T) {
	long := strings.Repeat("A sentence that goes on and on to fill a wide screen. ", 12)
	reply := long + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	tr := newTest(t, 200, 60)
	tr.Reset([]conversation.Message{userMsg(1, long), replyMsg(2, reply)})
	settle(t, tr)
	widest := func(i int) int {
		w := 0
		for _, l := range plainItem(tr, i) {
			w = max(w, ansi.StringWidth(l))
		}
		return w
	}
	if got := tr.MaxProseWidth(); got != DefaultMaxProseWidth {
		t.Fatalf("MaxProseWidth = %d, want %d", got, DefaultMaxProseWidth)
	}
	if w := widest(0); w > userBarW+DefaultMaxProseWidth || w < DefaultMaxProseWidth-10 {
		t.Fatalf("the user's text is %d wide, want about %d", w, DefaultMaxProseWidth)
	}
	if w := widest(1); w > len(replyIndent)+DefaultMaxProseWidth || w < DefaultMaxProseWidth-10 {
		t.Fatalf("the reply is %d wide, want about %d", w, DefaultMaxProseWidth)
	}
	for _, l := range plainItem(tr, 1) {
		if strings.Contains(l, "┼") && ansi.StringWidth(strings.TrimSpace(l)) > 10 {
			t.Fatalf("a two-column table of single characters is stretched: %q", l)
		}
	}
	tr.SetMaxProseWidth(0)
	settle(t, tr)
	if w := widest(1); w < 190 {
		t.Fatalf("with the cap off the reply is %d wide at 200 columns", w)
	}
	tr.SetMaxProseWidth(60)
	settle(t, tr)
	if w := widest(1); w > len(replyIndent)+60 {
		t.Fatalf("with a cap of 60 the reply is %d wide", w)
	}
	checkGeometry(t, tr)
}

var viewLabel = regexp.MustCompile(`\[(\d+)\]`)

// TestCodeBlockNumbersMatchCopy: the numbers shown on code blocks are the
// indexes mdstream.CodeBlocks gives for the reply (what /copy n copies),
// also while the reply streams, and past 9.
func TestCodeBlockNumbersMatchCopy(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		b.WriteString("Step.\n\n```sh\necho step" + string(rune('a'+i)) + "\n```\n\n")
	}
	text := b.String()
	tr := newTest(t, 80, 200)
	tr.Append(userMsg(1, "steps"))
	tr.Append(streamingMsg(2))
	streamAll(tr, 2, splitDeltas(text, 17, 3))
	settle(t, tr)
	check := func(when string) {
		t.Helper()
		blocks := mdstream.CodeBlocks(termsafe.Markdown(text))
		lines := plainItem(tr, 1)
		n := 0
		for k, l := range lines {
			m := viewLabel.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			n++
			if m[1] != strconv.Itoa(n) {
				t.Fatalf("%s: label %s where %d was due", when, m[1], n)
			}
			if code := strings.TrimSpace(lines[k+1]); code+"\n" != blocks[n-1] {
				t.Fatalf("%s: block %d shows %q, CodeBlocks has %q", when, n, code, blocks[n-1])
			}
		}
		if n != 12 || len(blocks) != 12 {
			t.Fatalf("%s: %d labels, %d blocks, want 12", when, n, len(blocks))
		}
	}
	check("streaming")
	done := streamingMsg(2)
	done.Text, done.State = text, conversation.StateDone
	tr.Update(done)
	settle(t, tr)
	check("finished")
}

// TestTableCutByEsc: a reply interrupted while a table streams shows a
// table (a partial row as far as it came) or, cut before the table's
// delimiter row, no paragraph of pipes.
func TestTableCutByEsc(t *testing.T) {
	for _, c := range []struct {
		text  string
		table bool
	}{
		{"Rows:\n\n| name | value |\n|---|--", false},
		{"Rows:\n\n| name | value |\n", false},
		{"Rows:\n\n| name | value |\n|---|---|\n| a | 1 |\n| b | tw", true},
	} {
		tr := newTest(t, 60, 20)
		tr.Append(streamingMsg(1))
		streamAll(tr, 1, splitDeltas(c.text, 5, 1))
		cut := streamingMsg(1)
		cut.Text, cut.State = c.text, conversation.StateInterrupted
		tr.Update(cut)
		settle(t, tr)
		// Also as loaded from history (rendered from scratch).
		fresh := newTest(t, 60, 20)
		fresh.Reset([]conversation.Message{cut})
		settle(t, fresh)
		for _, x := range []*Transcript{tr, fresh} {
			text := strings.Join(plainItem(x, 0), "\n")
			if strings.Contains(text, "| name") || strings.Contains(text, "|--") {
				t.Fatalf("%q: the table shows as a paragraph of pipes:\n%s", c.text, text)
			}
			if got := strings.Contains(text, "┼"); got != c.table {
				t.Fatalf("%q: table shown %v, want %v:\n%s", c.text, got, c.table, text)
			}
			if c.table && !strings.Contains(text, "tw") {
				t.Fatalf("%q: the partial row is missing:\n%s", c.text, text)
			}
			if !strings.Contains(text, "interrupted") {
				t.Fatalf("%q: the interrupted mark is missing", c.text)
			}
		}
	}
}

// TestLargeMessageRendersInBackground: a finished message too long to
// render in a frame shows as plain text, then rendered once its job comes
// back; a theme change keeps the old lines meanwhile (same width).
func TestLargeMessageRendersInBackground(t *testing.T) {
	text := answer(randFor(8), 3*syncRenderBytes)
	ctx := testContext(80, 40)
	tr := New(ctx)
	tr.SetSize(80, 40)
	tr.Reset([]conversation.Message{userMsg(1, "q"), replyMsg(2, text)})
	if !tr.list.items[1].pending {
		t.Fatalf("a %d-byte message was rendered on the Update goroutine", len(text))
	}
	if !tr.NeedsTick() {
		t.Fatal("a message waiting for a job does not ask for a tick")
	}
	cmd := tr.Tick()
	if cmd == nil {
		t.Fatal("Tick started no job")
	}
	if tr.Tick() != nil {
		t.Fatal("a second job started while one runs")
	}
	msg := cmd()
	if !tr.HandleMsg(msg) {
		t.Fatal("HandleMsg refused the job's result")
	}
	if tr.HandleMsg(msg) != true || tr.HandleMsg("other") {
		t.Fatal("HandleMsg: a repeated result is taken (and ignored), another message is not")
	}
	if tr.list.items[1].pending {
		t.Fatal("still pending after the job")
	}
	settle(t, tr)
	rendered := plainItem(tr, 1)
	want := plainLines(tr.c.fitReply(nil, refRender(tr, text), true))
	if !slices.Equal(rendered[2:], want) {
		t.Fatalf("background rendering differs from a direct one:\n%s", strings.Join(rendered, "\n"))
	}
	// Restyle: same width, the old lines stay until the job.
	before := plainItem(tr, 1)
	restyleContext(ctx, "light")
	tr.Restyle()
	if !tr.list.items[1].pending || !slices.Equal(plainItem(tr, 1), before) {
		t.Fatal("after a restyle the old lines are not kept while the job runs")
	}
	settle(t, tr)
	if tr.list.items[1].pending {
		t.Fatal("restyled message never rendered")
	}
	// A job whose message changed is dropped: the newer text wins.
	tr.SetSize(70, 40)
	cmd = tr.Tick()
	if cmd == nil {
		t.Fatal("no job after a resize")
	}
	newer := replyMsg(2, text+"\n\nA postscript that must stay.")
	tr.Update(newer)
	tr.HandleMsg(cmd())
	settle(t, tr)
	if got := strings.Join(plainItem(tr, 1), "\n"); !strings.Contains(got, "A postscript that must stay.") {
		t.Fatal("a stale job overwrote the newer text")
	}
}
