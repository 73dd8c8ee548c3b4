package transcript

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/conversation"
	"parley/ui/uictx"
)

// reasoningText is thinking as models write it: paragraphs of plain
// sentences (with the odd generic type and comparison), about size bytes.
func reasoningText(r *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len() < size {
		for range 2 + r.IntN(4) {
			b.WriteString(strings.ReplaceAll(sentence(r, 6+r.IntN(14)), "`", ""))
			if r.IntN(5) == 0 {
				b.WriteString("Maybe Map<K, V> where a<b holds. ")
			}
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// thinkClock gives a transcript a clock the test moves.
type thinkClock struct{ now time.Time }

func (c *thinkClock) tick(d time.Duration) { c.now = c.now.Add(d) }

func withClock(tr *Transcript) *thinkClock {
	c := &thinkClock{now: time.Unix(1_700_000_000, 0)}
	tr.c.now = func() time.Time { return c.now }
	tr.list.now = tr.c.now
	return c
}

// reasoningReply is a finished reply that thought for d and counted tokens.
func reasoningReply(id int, text, reasoning string, d time.Duration, tokens int) conversation.Message {
	m := replyMsg(id, text)
	m.Reasoning = reasoning
	if d > 0 {
		m.ReasoningStart = time.Unix(1_700_000_000, 0)
		m.ReasoningEnd = m.ReasoningStart.Add(d)
	}
	if tokens > 0 {
		m.Usage = &api.Usage{CompletionTokens: tokens + 10, CompletionTokensDetails: &api.TokensDetails{ReasoningTokens: tokens}}
	}
	return m
}

// thinkLinesOf returns the reasoning lines of item i (the gutter taken
// off), without colours.
func thinkLinesOf(tr *Transcript, i int) []string {
	var out []string
	for _, l := range plainItem(tr, i) {
		if rest, ok := strings.CutPrefix(l, replyIndent+thinkGutter); ok {
			out = append(out, strings.TrimPrefix(rest, " "))
		}
	}
	return out
}

// checkThinkGeometry fails unless every rendered line of every fresh item
// is exactly the width and the heights index agrees with the items.
func checkThinkGeometry(t *testing.T, tr *Transcript) {
	t.Helper()
	checkGeometry(t, tr)
	for i, it := range tr.list.items {
		if !tr.r.fresh(it) {
			continue
		}
		if got := tr.list.hs.get(i); got != it.height() {
			t.Fatalf("item %d: heights index says %d lines, the item has %d", i, got, it.height())
		}
		for k := range it.height() {
			if w := ansi.StringWidth(it.line(k)); w != tr.list.w {
				t.Fatalf("item %d line %d is %d cells wide, want %d: %q", i, k, w, tr.list.w, it.line(k))
			}
			assertOnlyColours(t, it.line(k))
		}
	}
}

// TestReasoningStreamsItsLastLinesThenFolds streams reasoning, then the
// answer, then ends the reply: while it thinks, the label and the last
// lines of the reasoning as wrapped whole; once the answer begins, one
// folded line with how long it thought; at the end, with its tokens too.
func TestReasoningStreamsItsLastLinesThenFolds(t *testing.T) {
	const w = 70
	tr := newTest(t, w, 30)
	clock := withClock(tr)
	tr.Append(userMsg(1, "why?"))
	tr.Append(streamingMsg(2))
	text := reasoningText(randFor(3), 3000)
	var sent strings.Builder
	for k, d := range splitDeltas(text, 40, 4) {
		clock.tick(50 * time.Millisecond)
		tr.AppendReasoning(2, d)
		sent.WriteString(d)
		if k%3 != 0 {
			continue
		}
		tickRun(tr)
		got := thinkLinesOf(tr, 1)
		all := trimEnds(wrapPlain(strings.TrimLeft(sent.String(), " \n"), tr.think.thinkRoom(), nil))
		want := all[max(len(all)-thinkTail, 0):]
		if !slices.Equal(trimEnds(got), trimEnds(want)) {
			t.Fatalf("after %d bytes the block shows\n%q\nwant the last lines\n%q", sent.Len(), got, want)
		}
		checkThinkGeometry(t, tr)
	}
	view := strings.Join(plainView(tr), "\n")
	if !strings.Contains(view, "▾ Thinking… ") || !strings.Contains(view, "(ctrl+t shows all of it)") {
		t.Fatalf("no Thinking label while the reply thinks:\n%s", view)
	}
	thought := clock.now.Sub(tr.list.items[1].live.think.start)

	clock.tick(2 * time.Second) // the answer comes a while after the last thought
	tr.AppendDelta(2, "The answer is **42**.")
	tickRun(tr)
	lines := plainItem(tr, 1)
	wantFold := "▸ Thought for " + thinkDuration(thought) + " (ctrl+t shows it)"
	if len(thinkLinesOf(tr, 1)) != 0 || !slices.Contains(lines, replyIndent+wantFold) {
		t.Fatalf("once the answer begins the reasoning folds to %q:\n%s", wantFold, strings.Join(lines, "\n"))
	}
	checkThinkGeometry(t, tr)

	done := reasoningReply(2, "The answer is **42**.", text, 4200*time.Millisecond, 380)
	tr.Update(done)
	lines = plainItem(tr, 1)
	if want := replyIndent + "▸ Thought for 4.2 s · 380 tokens (ctrl+t shows it)"; lines[2] != want {
		t.Fatalf("finished reply: line 3 is %q, want %q:\n%s", lines[2], want, strings.Join(lines, "\n"))
	}
	if lines[3] != replyIndent+"The answer is 42." || len(lines) != 4 {
		t.Fatalf("the answer does not follow the folded line:\n%s", strings.Join(lines, "\n"))
	}
	checkThinkGeometry(t, tr)
}

// TestReasoningEndsWithoutAnswer: a reply interrupted or failed while it
// thought folds its reasoning too, and keeps its state below.
func TestReasoningEndsWithoutAnswer(t *testing.T) {
	for _, st := range []conversation.State{conversation.StateInterrupted, conversation.StateFailed} {
		tr := newTest(t, 60, 20)
		withClock(tr)
		tr.Append(userMsg(1, "q"))
		tr.Append(streamingMsg(2))
		tr.AppendReasoning(2, "Let me see.\nFirst\nSecond\nThird\nFourth\nFifth")
		tickRun(tr)
		if got := thinkLinesOf(tr, 1); !slices.Equal(got, []string{"Second", "Third", "Fourth", "Fifth"}) {
			t.Fatalf("streaming block: %q", got)
		}
		m := streamingMsg(2)
		m.State, m.Err = st, "the connection was reset"
		m.Reasoning = "Let me see.\nFirst\nSecond\nThird\nFourth\nFifth"
		m.ReasoningStart = time.Unix(10, 0)
		m.ReasoningEnd = time.Unix(13, 0)
		tr.Update(m)
		view := strings.Join(plainItem(tr, 1), "\n")
		if !strings.Contains(view, "▸ Thought for 3.0 s") || strings.Contains(view, "Fifth") || strings.Contains(view, "Thinking") {
			t.Fatalf("%v reply:\n%s", st, view)
		}
		if !strings.Contains(view, "■ interrupted") && !strings.Contains(view, "✗ the connection was reset") {
			t.Fatalf("%v reply lost its state:\n%s", st, view)
		}
		checkThinkGeometry(t, tr)
	}
}

// TestUnfoldAndFold unfolds the reasoning of every reply of a history and
// folds it again: unfolded, every reply with reasoning shows all of it,
// wrapped plain (every character kept), a reply without reasoning shows
// nothing more; folded again, the transcript is as it was.
func TestUnfoldAndFold(t *testing.T) {
	ctx := noColorContext(72, 24)
	tr := New(ctx)
	tr.SetSize(72, 24)
	r := randFor(8)
	var msgs []conversation.Message
	reasons := map[int]string{}
	for i := range 30 {
		id := 2*i + 1
		msgs = append(msgs, userMsg(id, fmt.Sprintf("question %d", i)))
		rs := ""
		if i%3 != 2 {
			rs = reasoningText(r, 200+r.IntN(900)) + "Use List<String> or Vec<u8>; `x` stays, **so** do <div> and &#27;."
			reasons[id+1] = rs
		}
		msgs = append(msgs, reasoningReply(id+1, answer(r, 300), rs, time.Duration(i+1)*time.Second, 10*i))
	}
	tr.Reset(msgs)
	renderAll(t, tr)
	folded := itemLines(tr)
	heightFolded := tr.list.hs.total()

	tr.SetThinkingOpen(true)
	if !tr.ThinkingOpen() {
		t.Fatal("ThinkingOpen is false after SetThinkingOpen(true)")
	}
	checkThinkGeometry(t, tr)
	renderAll(t, tr)
	checkThinkGeometry(t, tr)
	for i, it := range tr.list.items {
		rs, ok := reasons[it.id()]
		got := thinkLinesOf(tr, i)
		switch {
		case it.isUser():
		case !ok:
			if len(got) != 0 || tr.list.items[i].height() != len(folded[i]) {
				t.Fatalf("reply %d without reasoning changed when unfolded", it.id())
			}
		default:
			want := trimEnds(wrapPlain(strings.TrimSpace(rs), tr.think.thinkRoom(), nil))
			if !slices.Equal(trimEnds(got), want) {
				t.Fatalf("reply %d unfolded shows\n%q\nwant\n%q", it.id(), got, want)
			}
			if label := plainItem(tr, i)[2]; !strings.HasPrefix(label, replyIndent+"▾ Thought for ") || !strings.HasSuffix(label, "(ctrl+t hides it)") {
				t.Fatalf("reply %d unfolded label %q", it.id(), label)
			}
		}
	}
	if tr.list.hs.total() <= heightFolded {
		t.Fatalf("unfolding did not add lines: %d then %d", heightFolded, tr.list.hs.total())
	}
	if n := tr.CodeBlocks(); n != countAnswerCodes(msgs) {
		t.Fatalf("%d code blocks numbered, the answers have %d: reasoning must not count", n, countAnswerCodes(msgs))
	}

	tr.SetThinkingOpen(false)
	renderAll(t, tr)
	if got := itemLines(tr); !slices.EqualFunc(got, folded, slices.Equal) {
		t.Fatal("folding again does not give the transcript as it was")
	}
	checkThinkGeometry(t, tr)
}

func countAnswerCodes(msgs []conversation.Message) int {
	n := 0
	for _, m := range msgs {
		if m.Role == api.RoleAssistant {
			n += strings.Count(m.Text, "```go")
		}
	}
	return n
}

// TestUnfoldKeepsTheReaderInPlace: scrolled up, reading an answer whose
// reasoning is above it, unfolding and folding keep the same line at the
// top of the window.
func TestUnfoldKeepsTheReaderInPlace(t *testing.T) {
	tr := newTest(t, 60, 10)
	var msgs []conversation.Message
	for i := range 10 {
		msgs = append(msgs, userMsg(2*i+1, "q"),
			reasoningReply(2*i+2, fmt.Sprintf("Answer %d line one.\n\nAnswer %d line two.\n\nAnswer %d line three.", i, i, i),
				strings.Repeat("thinking hard about it. ", 30), time.Second, 0))
	}
	tr.Reset(msgs)
	settle(t, tr)
	tr.List().Reveal(12)
	tr.List().LineDown(5) // into the answer of reply 12
	before := plainView(tr)[0]
	if !strings.Contains(before, "Answer 5") {
		t.Fatalf("the window does not start in answer 5: %q", before)
	}
	tr.SetThinkingOpen(true)
	if got := plainView(tr)[0]; got != before {
		t.Fatalf("unfolding moved the reader: top line %q, was %q", got, before)
	}
	tr.SetThinkingOpen(false)
	if got := plainView(tr)[0]; got != before {
		t.Fatalf("folding moved the reader: top line %q, was %q", got, before)
	}
	checkThinkGeometry(t, tr)
}

// TestUnfoldedWhileStreaming: unfolded, a reply in flight shows all of its
// reasoning as it arrives (the lines made final are fitted once), and
// keeps it when the answer begins.
func TestUnfoldedWhileStreaming(t *testing.T) {
	tr := newTest(t, 50, 20)
	clock := withClock(tr)
	tr.SetThinkingOpen(true)
	tr.Append(userMsg(1, "q"))
	tr.Append(streamingMsg(2))
	text := reasoningText(randFor(5), 4000)
	var sent strings.Builder
	for k, d := range splitDeltas(text, 30, 6) {
		clock.tick(10 * time.Millisecond)
		tr.AppendReasoning(2, d)
		sent.WriteString(d)
		if k%5 == 0 {
			tickRun(tr)
			want := trimEnds(wrapPlain(strings.TrimSpace(sent.String()), tr.think.thinkRoom(), nil))
			if got := trimEnds(thinkLinesOf(tr, 1)); !slices.Equal(got, want) {
				t.Fatalf("after %d bytes:\n%q\nwant\n%q", sent.Len(), got, want)
			}
		}
	}
	tr.AppendDelta(2, "Done.")
	tickRun(tr)
	lines := plainItem(tr, 1)
	if !strings.HasPrefix(lines[2], replyIndent+"▾ Thought for ") || !strings.HasSuffix(lines[2], "(ctrl+t hides it)") {
		t.Fatalf("label once answered: %q", lines[2])
	}
	if want := trimEnds(wrapPlain(strings.TrimSpace(text), tr.think.thinkRoom(), nil)); !slices.Equal(trimEnds(thinkLinesOf(tr, 1)), want) {
		t.Fatal("the unfolded reasoning changed when the answer began")
	}
	if lines[len(lines)-1] != replyIndent+"Done." {
		t.Fatalf("the answer is not below the reasoning: %q", lines[len(lines)-1])
	}
	tr.SetThinkingOpen(false)
	checkThinkGeometry(t, tr)
	if got := thinkLinesOf(tr, 1); len(got) != 0 {
		t.Fatalf("folded while streaming still shows %d lines", len(got))
	}
	tr.SetThinkingOpen(true)
	tr.SetSize(31, 20) // a new width mid-stream wraps it all again
	tickRun(tr)
	checkThinkGeometry(t, tr)
	if want := trimEnds(wrapPlain(strings.TrimSpace(text), tr.think.thinkRoom(), nil)); !slices.Equal(trimEnds(thinkLinesOf(tr, 1)), want) {
		t.Fatal("the reasoning is not wrapped again at the new width")
	}
}

// TestReopenedReasoning: a session reopened (Reset) shows each reply's
// reasoning folded, with what is known of it; a reply whose reasoning is
// empty or blank shows nothing more.
func TestReopenedReasoning(t *testing.T) {
	tr := newTest(t, 80, 30)
	tr.Reset([]conversation.Message{
		userMsg(1, "a"),
		reasoningReply(2, "One.", "short thought", 4200*time.Millisecond, 380),
		userMsg(3, "b"),
		reasoningReply(4, "Two.", "came in one piece", 0, 1),
		userMsg(5, "c"),
		reasoningReply(6, "Three.", " \n\n \t", time.Second, 5),
		userMsg(7, "d"),
		reasoningReply(8, "Four.", "", 0, 0),
		userMsg(9, "e"),
		reasoningReply(10, "Five.", "minutes", 3*time.Minute+5*time.Second, 0),
	})
	want := map[int]string{
		1: "▸ Thought for 4.2 s · 380 tokens (ctrl+t shows it)",
		3: "▸ Reasoning · 1 token (ctrl+t shows it)",
		9: "▸ Thought for 3 min 5 s (ctrl+t shows it)",
	}
	for i := range tr.list.items {
		if tr.list.items[i].isUser() {
			continue
		}
		lines := plainItem(tr, i)
		if w, ok := want[i]; ok {
			if lines[2] != replyIndent+w {
				t.Errorf("reply %d: %q, want %q", i, lines[2], replyIndent+w)
			}
			continue
		}
		if len(lines) != 3 || strings.Contains(strings.Join(lines, "\n"), "Thought") {
			t.Errorf("reply %d without reasoning shows more than its answer:\n%s", i, strings.Join(lines, "\n"))
		}
	}
	checkThinkGeometry(t, tr)
}

func TestThinkDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                       "0.0 s",
		40 * time.Millisecond:                   "0.0 s",
		420 * time.Millisecond:                  "0.4 s",
		4200 * time.Millisecond:                 "4.2 s",
		9960 * time.Millisecond:                 "10 s",
		42 * time.Second:                        "42 s",
		59600 * time.Millisecond:                "1 min 0 s",
		3*time.Minute + 5*time.Second:           "3 min 5 s",
		time.Hour + 2*time.Minute:               "1 h 2 min",
		-time.Second:                            "0.0 s",
		26*time.Hour + 30*time.Second:           "26 h 1 min",
		59*time.Minute + 59*time.Second:         "59 min 59 s",
		59*time.Minute + 59600*time.Millisecond: "1 h 0 min",
	} {
		if got := thinkDuration(d); got != want {
			t.Errorf("thinkDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestHostileReasoning: escape sequences in reasoning are shown inert (and
// never reach a line), tag-like text is kept, a huge line without a space
// is wrapped (and not again whole every frame), and more than
// maxShownReasoning is said, not shown.
func TestHostileReasoning(t *testing.T) {
	tr := newTest(t, 40, 12)
	withClock(tr)
	tr.SetThinkingOpen(true)
	tr.Append(userMsg(1, "q"))
	tr.Append(streamingMsg(2))
	hostile := "Title \x1b]0;pwned\x07 and \x1b[2J cleared \x9b31m \u202eevil\u202c a<b>c List<String> <div>&#27;</div>"
	for _, d := range splitDeltas(hostile, 3, 1) {
		tr.AppendReasoning(2, d)
		tickRun(tr)
		for k := range tr.list.items[1].height() {
			if bad := unsafeIn(tr.list.items[1].line(k)); bad != "" {
				t.Fatalf("a reasoning line holds %s: %q", bad, tr.list.items[1].line(k))
			}
		}
	}
	got := strings.Join(thinkLinesOf(tr, 1), " ")
	for _, want := range []string{"␛]0;pwned␇", "␛[2J", "⟨U+202E⟩", "a<b>c", "List<String>", "<div>&#27;</div>"} {
		if !strings.Contains(got, want) {
			t.Errorf("the reasoning lacks %q: %q", want, got)
		}
	}

	// One line of 300 KB without a space, streamed: the wrapper keeps only
	// a few lines open, the lines are the width, and past the cap a note.
	huge := strings.Repeat("Z", 300<<10)
	for n := 0; n < 2*len(huge); n += 64 << 10 {
		tr.AppendReasoning(2, huge[:64<<10])
		tickRun(tr)
		th := tr.list.items[1].live.think
		if open := th.laid.Len() - th.wrap.from; open > 4*tr.think.thinkRoom() {
			t.Fatalf("%d bytes of one line are wrapped again every frame", open)
		}
	}
	checkThinkGeometry(t, tr)
	lines := thinkLinesOf(tr, 1)
	last := strings.Join(lines[len(lines)-3:], " ")
	if !strings.Contains(last, "more of the reasoning is not shown here") {
		t.Fatalf("no note past the cap: %q", last)
	}
	m := streamingMsg(2)
	m.State = conversation.StateDone
	m.Text = "ok"
	m.Reasoning = hostile + strings.Repeat(huge, 2)
	tr.Update(m)
	checkThinkGeometry(t, tr)
	lines = thinkLinesOf(tr, 1)
	if note := strings.Join(lines[len(lines)-3:], " "); !strings.Contains(note, "more of the reasoning is not shown here; /export writes all of it") {
		t.Fatalf("finished: no note past the cap: %q", note)
	}
	if n := len(strings.Join(lines, "")); n > maxShownReasoning+4096 {
		t.Fatalf("%d bytes of reasoning shown, the cap is %d", n, maxShownReasoning)
	}
}

// TestReasoningAtEveryWidth streams and finishes a reply with reasoning at
// widths from 20 to 200 (wide and combining characters included),
// folded and unfolded: every line is the width, the heights agree.
func TestReasoningAtEveryWidth(t *testing.T) {
	text := "漢字の推論 é e\u0301 👍🏽 " + reasoningText(randFor(9), 1200) + strings.Repeat("w", 230)
	for w := 20; w <= 200; w += 9 {
		for _, open := range []bool{false, true} {
			tr := newTest(t, w, 16)
			withClock(tr)
			tr.SetThinkingOpen(open)
			tr.Append(userMsg(1, "q"))
			tr.Append(streamingMsg(2))
			for _, d := range splitDeltas(text, 50, uint64(w)) {
				tr.AppendReasoning(2, d)
				tickRun(tr)
			}
			checkThinkGeometry(t, tr)
			tr.Update(reasoningReply(2, "Answer.", text, 2*time.Second, 99))
			checkThinkGeometry(t, tr)
			tr.SetThinkingOpen(!open)
			settle(t, tr)
			checkThinkGeometry(t, tr)
		}
	}
}

// TestReasoningWordsWithoutColour: with 16 colours and with NO_COLOR the
// words and the gutter carry the meaning; under NO_COLOR no colour is
// drawn and the reasoning is faint, in 16 colours it is the theme's muted
// colour, mapped.
func TestReasoningWordsWithoutColour(t *testing.T) {
	ansi16 := func(w, h int) *uictx.Context {
		ctx := testContext(w, h)
		th := ctx.Theme.ForProfile(colorprofile.ANSI)
		ctx.Theme, ctx.Styles, ctx.Glamour = th, th.Styles(false), th.Glamour(false)
		return ctx
	}
	for name, mk := range map[string]func(int, int) *uictx.Context{"no colour": noColorContext, "16 colours": ansi16} {
		tr := New(mk(60, 20))
		tr.SetSize(60, 20)
		withClock(tr)
		tr.Append(userMsg(1, "q"))
		tr.Append(streamingMsg(2))
		tr.AppendReasoning(2, "Considering the options.")
		tickRun(tr)
		raw := strings.Join(tr.list.items[1].d.think, "\n")
		view := strings.Join(plainItem(tr, 1), "\n")
		if !strings.Contains(view, "▾ Thinking…") || !strings.Contains(view, "┆ Considering the options.") {
			t.Errorf("%s: streaming block without its words:\n%s", name, view)
		}
		tr.Update(reasoningReply(2, "Yes.", "Considering the options.", 1500*time.Millisecond, 12))
		view = strings.Join(plainItem(tr, 1), "\n")
		if !strings.Contains(view, "▸ Thought for 1.5 s · 12 tokens (ctrl+t shows it)") {
			t.Errorf("%s: folded line without its words:\n%s", name, view)
		}
		switch name {
		case "no colour":
			if strings.Contains(raw, "38;") || !strings.Contains(raw, "\x1b[2m") {
				t.Errorf("%s: the reasoning is not faint, or coloured: %q", name, raw)
			}
		default:
			if !strings.Contains(raw, "\x1b[") {
				t.Errorf("%s: the reasoning is not styled: %q", name, raw)
			}
		}
	}
}

// TestThinkingKeyFollowsKeyMap: the folded line names the key map's
// toggle_thinking key; with none bound it says what it is and nothing
// about a key.
func TestThinkingKeyFollowsKeyMap(t *testing.T) {
	ctx := testContext(60, 10)
	tr := New(ctx)
	tr.SetSize(60, 10)
	tr.Reset([]conversation.Message{userMsg(1, "q"), reasoningReply(2, "A.", "hmm", time.Second, 0)})
	if got := plainItem(tr, 1)[2]; got != replyIndent+"▸ Thought for 1.0 s (ctrl+t shows it)" {
		t.Fatalf("folded line %q", got)
	}
	ctx.Keys.ToggleThinking.SetKeys("f9")
	ctx.Keys.ToggleThinking.SetHelp("f9", "thinking")
	ctx.StyleGen++
	tr.Restyle()
	if got := plainItem(tr, 1)[2]; got != replyIndent+"▸ Thought for 1.0 s (f9 shows it)" {
		t.Fatalf("after a key map change: %q", got)
	}
	ctx.Keys.ToggleThinking.SetEnabled(false)
	ctx.StyleGen++
	tr.Restyle()
	if got := plainItem(tr, 1)[2]; got != replyIndent+"▸ Thought for 1.0 s" {
		t.Fatalf("without a key: %q", got)
	}
}

// TestReasoningCodeFencesAreNotCodeBlocks: fences in the reasoning are
// text: the numbering of code blocks counts the answers' only, while the
// reasoning streams and after.
func TestReasoningCodeFencesAreNotCodeBlocks(t *testing.T) {
	tr := newTest(t, 60, 30)
	withClock(tr)
	tr.SetThinkingOpen(true)
	fenced := "I could write\n```go\nfunc x() {}\n```\nor not."
	tr.Reset([]conversation.Message{userMsg(1, "q"), reasoningReply(2, "```sh\nls\n```", fenced, time.Second, 0)})
	tr.Append(userMsg(3, "again"))
	tr.Append(streamingMsg(4))
	tr.AppendReasoning(4, fenced)
	tr.AppendDelta(4, "```sh\npwd\n```\n")
	tickRun(tr)
	if n := tr.CodeBlocks(); n != 2 {
		t.Fatalf("%d code blocks, want the answers' 2", n)
	}
	for _, k := range []int{1, 2} {
		if code, ok := tr.CodeBlock(k); !ok || strings.Contains(code, "func x") {
			t.Fatalf("block %d is %q", k, code)
		}
	}
	if got := strings.Join(thinkLinesOf(tr, 1), "\n"); !strings.Contains(got, "```go") {
		t.Fatalf("the fence in the reasoning is not shown as written:\n%s", got)
	}
}

// TestReasoningWithGraphemesSwitch: the terminal's measure changing while
// a reply thinks lays its reasoning out again.
func TestReasoningWithGraphemesSwitch(t *testing.T) {
	tr := newTest(t, 30, 12)
	withClock(tr)
	tr.SetThinkingOpen(true)
	tr.Append(userMsg(1, "q"))
	tr.Append(streamingMsg(2))
	family := "family 👨\u200d👩\u200d👧 here"
	tr.AppendReasoning(2, family)
	tickRun(tr)
	if got := strings.Join(thinkLinesOf(tr, 1), ""); strings.Contains(got, "\u200d") {
		t.Fatalf("laid out for a wcwidth terminal the joiners go: %q", got)
	}
	tr.SetGraphemes(true)
	tickRun(tr)
	if got := strings.Join(thinkLinesOf(tr, 1), ""); !strings.Contains(got, "👨\u200d👩\u200d👧") {
		t.Fatalf("with grapheme clusters the family stays whole: %q", got)
	}
	checkThinkGeometry(t, tr)
}
