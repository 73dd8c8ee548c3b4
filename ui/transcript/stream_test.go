package transcript

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/termsafe"
)

// streamText is a reply that exercises what streaming makes hard: an open
// code fence, a table written row by row, a list continued after a blank
// line, a quote, headings, links (which glamour turns into hyperlinks).
const streamText = "## Plan\n\nFirst we read the **config** and check `width`. " +
	"Then we [read the docs](https://example.com/docs).\n\n" +
	"- one item\n- two items with more words to wrap around the edge of a narrow screen\n\n" +
	"  continued paragraph of item two\n- three\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n\tfor i := range 10 {\n\t\t_ = i\n\t}\n}\n```\n\n" +
	"| name | value | note |\n|------|------:|------|\n| a | 1 | first |\n| b | 22 | second row |\n\n" +
	"> A quote that goes on for a while, long enough to wrap at least once.\n\n" +
	"1. ordered\n2. list\n\n" +
	"Final paragraph with 漢字 and emoji 😀 and a footnote-ish [ref][1].\n\n[1]: https://example.com/ref\n"

// heldBack returns text without the last line that an incremental
// document holds back while streaming (package mdstream documents this):
// a partial line of only backticks or only tildes (a code fence being
// typed, which would flash as a stray line of backticks), a last line
// starting with a | under a line without one (maybe a table header, which
// would show as a paragraph of pipes), and a partial delimiter row under a
// line with a |, together with that line when it is a table's header.
func heldBack(text string) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	n := len(lines)
	if n == 0 {
		return text
	}
	partial := !strings.HasSuffix(text, "\n")
	line := func(i int) string {
		if i < 0 {
			return ""
		}
		return strings.TrimRight(lines[i], "\r\n")
	}
	upTo := func(i int) string { return strings.Join(lines[:i], "") }
	last := line(n - 1)
	trimmed := strings.TrimLeft(last, " ")
	shallow := len(last)-len(trimmed) <= 3
	switch {
	case partial && shallow && trimmed != "" && (strings.Trim(trimmed, "`") == "" || strings.Trim(trimmed, "~") == ""):
		return upTo(n - 1)
	case shallow && strings.HasPrefix(trimmed, "|") && !strings.Contains(line(n-2), "|"):
		return upTo(n - 1)
	case partial && strings.Trim(last, "|-: \t") == "" && strings.Contains(last, "|") && strings.Contains(line(n-2), "|"):
		if !strings.Contains(line(n-3), "|") {
			return upTo(n - 2)
		}
		return upTo(n - 1)
	}
	return text
}

func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return out
}

// TestStreamingMatchesFullRender streams replies through the transcript
// with frames at random points and checks, at every frame, that the
// cached incremental rendering shows the same text as rendering the whole
// text received so far from scratch (colours aside: an open code fence is
// not highlighted until it closes). At the end, the finished reply must
// equal a fresh transcript's rendering of the final message.
func TestStreamingMatchesFullRender(t *testing.T) {
	// Code highlighting (chroma's regexp engine) is slow under -race; the
	// longer texts use the no-colour style, which compares the same text.
	cases := []struct {
		name    string
		text    string
		w       int
		noColor bool
	}{
		{"mixed", streamText, 40, false},
		{"mixed", streamText, 81, true},
		{"answer", answer(rand.New(rand.NewPCG(5, 5)), 5000), 64, true},
		{"code", codeBlock(rand.New(rand.NewPCG(6, 6)), 40), 40, true},
	}
	for _, c := range cases {
		name, text, w := c.name, c.text, c.w
		newT := func() *Transcript {
			ctx := testContext(w, 15)
			if c.noColor {
				ctx = noColorContext(w, 15)
			}
			tr := New(ctx)
			tr.SetSize(w, 15)
			return tr
		}
		{
			t.Run(name+"/"+strconv.Itoa(w)+map[bool]string{true: "/nocolor"}[c.noColor], func(t *testing.T) {
				tr := newT()
				tr.Append(userMsg(1, "question"))
				tr.Append(streamingMsg(2))
				rng := rand.New(rand.NewPCG(uint64(w), 9))
				frames := 0
				var sent strings.Builder
				for _, d := range splitDeltas(text, 23, uint64(len(name))) {
					tr.AppendDelta(2, d)
					sent.WriteString(d)
					if rng.IntN(3) != 0 {
						continue
					}
					settle(t, tr)
					frames++
					it := tr.list.items[1]
					got := plainLines(it.d.body)
					// What the document holds: the text so far, sanitised (an
					// incomplete character or reference waits for the next delta).
					safe := it.live.safe.String()
					if !strings.HasPrefix(termsafe.Markdown(sent.String()), safe) {
						t.Fatalf("sanitised text is not a prefix of the sanitised input")
					}
					ref := refRender(tr, heldBack(safe))
					want := plainLines(tr.c.fitReply(nil, ref, false))
					if len(ref) == 0 {
						want = nil
					}
					if !slices.Equal(got, want) {
						for k := range max(len(got), len(want)) {
							var g, w string
							if k < len(got) {
								g = got[k]
							}
							if k < len(want) {
								w = want[k]
							}
							if g != w {
								t.Errorf("line %d:\n got %q\nwant %q", k, g, w)
							}
						}
						t.Fatalf("frame %d after %d bytes: incremental\n%s\nfull render\n%s",
							frames, sent.Len(), strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
				if frames < 10 {
					t.Fatalf("only %d frames", frames)
				}
				done := streamingMsg(2)
				done.Text, done.State, done.FinishReason = text, conversation.StateDone, "stop"
				tr.Update(done)
				settle(t, tr) // the final rendering may be a background job

				fresh := newT()
				fresh.Reset([]conversation.Message{userMsg(1, "question"), done})
				fresh.r.renderItem(fresh.list.items[1])
				settle(t, fresh)
				if got, want := plainItem(tr, 1), plainItem(fresh, 1); !slices.Equal(got, want) {
					t.Fatalf("finished reply differs from a fresh render:\n%s\nwant\n%s",
						strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				// Colours too, once finished: code is highlighted as in a
				// fresh render (the same styles are used; how a renderer
				// splits whitespace into runs may differ).
				if got, want := sgrSet(tr.list.items[1]), sgrSet(fresh.list.items[1]); !maps.Equal(got, want) {
					t.Fatalf("finished reply styled differently:\n%v\nwant\n%v", got, want)
				}
			})
		}
	}
}

// TestTickRendersOnlyWhenChanged checks the frame contract: no delta, no
// work and no change reported.
func TestTickRendersOnlyWhenChanged(t *testing.T) {
	tr := newTest(t, 60, 10)
	tr.Append(streamingMsg(1))
	tr.AppendDelta(1, "Hello")
	if !tr.NeedsTick() {
		t.Fatal("a delta does not ask for a tick")
	}
	if !tr.tick() {
		t.Fatal("Tick after a delta reports no change")
	}
	if tr.NeedsTick() || tr.tick() {
		t.Fatal("Tick without a delta has work")
	}
	body := slices.Clone(tr.list.items[0].d.body)
	tr.AppendDelta(1, " world")
	if !slices.Equal(body, tr.list.items[0].d.body) {
		t.Fatal("AppendDelta rendered (it must only append)")
	}
	tickRun(tr)
	if got := strings.Join(plainItem(tr, 0), "\n"); !strings.Contains(got, "Hello world") {
		t.Fatalf("after tick:\n%s", got)
	}
	// Deltas for unknown or finished messages are ignored.
	tr.AppendDelta(99, "stray")
	done := streamingMsg(1)
	done.Text, done.State = "Hello world", conversation.StateDone
	tr.Update(done)
	tr.AppendDelta(1, " late")
	if tr.NeedsTick() {
		t.Fatal("late delta made work")
	}
	if got := strings.Join(plainItem(tr, 0), "\n"); strings.Contains(got, "late") || strings.Contains(got, "stray") {
		t.Fatalf("stray text shown:\n%s", got)
	}
}

// TestFinishWithDifferentText covers a final message whose text is not
// what was streamed (the conversation is the truth).
func TestFinishWithDifferentText(t *testing.T) {
	tr := newTest(t, 60, 10)
	tr.Append(streamingMsg(1))
	tr.AppendDelta(1, "draft")
	tickRun(tr)
	done := streamingMsg(1)
	done.Text, done.State = "The final text", conversation.StateDone
	tr.Update(done)
	got := strings.Join(plainItem(tr, 0), "\n")
	if !strings.Contains(got, "The final text") || strings.Contains(got, "draft") {
		t.Fatalf("final render:\n%s", got)
	}
}

// sgrSet returns the distinct SGR sequences in an item's lines.
func sgrSet(it *item) map[string]bool {
	set := map[string]bool{}
	for k := 0; k < it.height(); k++ {
		l := it.line(k)
		for {
			i := strings.Index(l, "\x1b[")
			if i < 0 {
				break
			}
			j := strings.IndexByte(l[i:], 'm')
			if j < 0 {
				break
			}
			if seq := l[i : i+j+1]; seq != "\x1b[m" && seq != "\x1b[0m" {
				set[seq] = true
			}
			l = l[i+j+1:]
		}
	}
	return set
}
