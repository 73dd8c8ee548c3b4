package transcript

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/themes"
)

// itemLines returns all items' lines.
func itemLines(tr *Transcript) [][]string {
	out := make([][]string, len(tr.list.items))
	for i, it := range tr.list.items {
		out[i] = make([]string, it.height())
		for k := range out[i] {
			out[i][k] = it.line(k)
		}
	}
	return out
}

// TestResizeReflowConverges resizes a long conversation and checks that
// the first frame at the new width is complete (the window rendered at
// once), that the place the user reads stays on screen while the rest is
// rendered lazily, and that the result equals a fresh render at that width.
func TestResizeReflowConverges(t *testing.T) {
	msgs := conversationOf(30, 11)
	// No colour: no code highlighting, which is slow under -race; the
	// streaming test below covers the coloured path.
	newT := func(w int) *Transcript {
		tr := New(noColorContext(w, 20))
		tr.SetSize(w, 20)
		return patient(tr)
	}
	tr := newT(100)
	tr.Reset(msgs)
	if tr.NeedsTick() == false {
		t.Fatal("Reset rendered everything at once")
	}
	settle(t, tr)

	// Scroll to the middle; remember the message and text at the top.
	tr.List().Top()
	tr.List().LineDown(tr.list.hs.total() / 2)
	anchor := tr.list.anchorID

	for _, w := range []int{57, 40, 133, 100} {
		tr.SetSize(w, 20)
		if tr.list.anchorID != anchor || tr.List().Following() {
			t.Fatalf("width %d: anchor moved from message %d to %d", w, anchor, tr.list.anchorID)
		}
		fresh := newT(w)
		fresh.Reset(msgs)
		renderAll(t, fresh)
		// The window is complete on the first frame: every line shown
		// comes from a rendering at the new width, equal to a fresh one.
		first := plainView(tr)
		i, off := tr.list.hs.find(tr.list.top())
		want := []string{}
		for j := i; j < len(fresh.list.items) && len(want) < 20+off; j++ {
			want = append(want, plainItem(fresh, j)...)
		}
		want = want[off:min(off+20, len(want))]
		if !slices.Equal(first[:len(want)], want) {
			t.Fatalf("width %d: first frame\n%s\nwant\n%s", w, strings.Join(first, "\n"), strings.Join(want, "\n"))
		}
		if stale(tr) == 0 {
			t.Fatalf("width %d: everything rendered on resize (should be lazy)", w)
		}
		for tr.NeedsTick() {
			tickRun(tr)
			if got := plainView(tr); !slices.Equal(got, first) {
				t.Fatalf("width %d: window changed while off-screen messages were rendered:\n%s\nwas\n%s",
					w, strings.Join(got, "\n"), strings.Join(first, "\n"))
			}
		}
		// Only the messages near the window were rendered; the others
		// are when they are scrolled to, as a fresh render would be.
		renderAll(t, tr)
		sameLines(t, tr, fresh)
		if tr.list.hs.total() != fresh.list.hs.total() {
			t.Fatalf("width %d: total height %d, fresh %d", w, tr.list.hs.total(), fresh.list.hs.total())
		}
	}
}

// TestResizeWhileFollowingAndStreaming resizes in the middle of a stream:
// the bottom stays in view and the reply keeps streaming at the new width.
func TestResizeWhileFollowingAndStreaming(t *testing.T) {
	msgs := conversationOf(20, 3)
	tr := newTest(t, 90, 15)
	tr.Reset(msgs)
	tr.Append(userMsg(100, "and now?"))
	tr.Append(streamingMsg(101))
	text := answer(randFor(4), 3000)
	deltas := splitDeltas(text, 30, 2)
	streamAll(tr, 101, deltas[:len(deltas)/2])
	tr.SetSize(45, 12)
	checkGeometry(t, tr)
	streamAll(tr, 101, deltas[len(deltas)/2:])
	if !tr.List().AtBottom() {
		t.Fatal("not at the bottom after resizing while following")
	}
	done := streamingMsg(101)
	done.Text, done.State = text, conversation.StateDone
	tr.Update(done)
	settle(t, tr)

	fresh := newTest(t, 45, 12)
	fresh.Reset(append(append(slices.Clone(msgs), userMsg(100, "and now?")), done))
	settle(t, fresh)
	if got, want := plainView(tr), plainView(fresh); !slices.Equal(got, want) {
		t.Fatalf("after the stream:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	renderAll(t, tr)
	renderAll(t, fresh)
	sameLines(t, tr, fresh)
	// Height only: nothing to re-render.
	tr.SetSize(45, 30)
	if tr.NeedsTick() {
		t.Fatal("a height change made rendering work")
	}
	checkGeometry(t, tr)
}

// TestRestyleRendersAgain: a theme change re-renders what is on screen at
// once (same text, new colours) and the rest when it comes near. The
// renders get patient's budget: on a loaded machine a render past the 80 ms
// race-build frame budget shows its plain text on purpose, which is not the
// theme changing the text.
func TestRestyleRendersAgain(t *testing.T) {
	ctx := testContext(60, 10)
	tr := patient(New(ctx))
	tr.SetSize(60, 10)
	tr.Reset(conversationOf(10, 1))
	settle(t, tr)
	before := tr.List().View()
	restyleContext(ctx, "light")
	tr.Restyle()
	after := tr.List().View()
	if before == after {
		t.Fatal("view unchanged after a theme change")
	}
	if !slices.Equal(plainView(tr), strings.Split(stripTrim(before), "\n")) {
		t.Fatal("text changed with the theme")
	}
	if stale(tr) == 0 {
		t.Fatal("restyle rendered everything at once")
	}
	settle(t, tr)
	lo, hi := tr.list.nearRange()
	for i := lo; i < hi; i++ {
		if !tr.r.fresh(tr.list.items[i]) {
			t.Fatalf("message %d, near the window, was not rendered in the new style", i)
		}
	}
	// The others are when they come near.
	tr.List().Top()
	settle(t, tr)
	if !tr.r.fresh(tr.list.items[0]) {
		t.Fatal("the first message was not rendered in the new style at the top")
	}
}

// stale counts the messages not rendered at the current width and style.
func stale(tr *Transcript) int {
	n := 0
	for _, it := range tr.list.items {
		if !tr.r.fresh(it) {
			n++
		}
	}
	return n
}

// sameLines fails unless both transcripts hold the same lines, colours
// included (code is highlighted in exact 24-bit colour, so a render is
// deterministic).
func sameLines(t *testing.T, got, want *Transcript) {
	t.Helper()
	g, w := itemLines(got), itemLines(want)
	if len(g) != len(w) {
		t.Fatalf("%d messages, want %d", len(g), len(w))
	}
	for i := range g {
		if !slices.Equal(g[i], w[i]) {
			for k := range min(len(g[i]), len(w[i])) {
				if g[i][k] != w[i][k] {
					t.Errorf("first difference, line %d:\n%q\n%q", k, g[i][k], w[i][k])
					break
				}
			}
			t.Fatalf("message %d (id %d) differs from a fresh render:\n%s\nwant\n%s", i, got.list.items[i].id(),
				strings.Join(plainItem(got, i), "\n"), strings.Join(plainItem(want, i), "\n"))
		}
	}
}

// sgrFor is the SGR foreground of a theme colour as the renderers write it
// (24-bit).
func sgrFor(c themes.Color) string {
	var r, g, b int
	if _, err := fmt.Sscanf(string(c), "#%02x%02x%02x", &r, &g, &b); err != nil {
		panic("not a hex colour: " + string(c))
	}
	return fmt.Sprintf("38;2;%d;%d;%d", r, g, b)
}

// TestThemeSwitchRecoloursCode: switching theme re-renders the transcript,
// and code blocks take the new theme's syntax colours, exactly (24-bit, the
// same bytes on every render), in a finished reply and in one that finished
// streaming.
func TestThemeSwitchRecoloursCode(t *testing.T) {
	const code = "Look:\n\n```go\nfunc main() {\n\treturn\n}\n```\n"
	ctx := testContext(60, 20)
	tr := New(ctx)
	tr.SetSize(60, 20)
	tr.Append(userMsg(1, "code please"))
	tr.Append(replyMsg(2, code))
	tr.Append(userMsg(3, "again"))
	tr.Append(streamingMsg(4))
	tr.AppendDelta(4, code)
	tickRun(tr)
	done := streamingMsg(4)
	done.Text, done.State = code, conversation.StateDone
	tr.Update(done)

	keywordLines := func() []string {
		var out []string
		for _, l := range strings.Split(tr.List().View(), "\n") {
			if strings.Contains(ansi.Strip(l), "func main()") {
				out = append(out, l)
			}
		}
		return out
	}
	for _, name := range []string{"dark", "light", "nord", "gruvbox"} {
		restyleContext(ctx, name)
		tr.Restyle()
		settle(t, tr)
		want := sgrFor(themeNamed(name).Syntax.Keyword)
		lines := keywordLines()
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines with the code, want 2:\n%s", name, len(lines), stripTrim(tr.List().View()))
		}
		for _, l := range lines {
			if !strings.Contains(l, "\x1b["+want+"mfunc") {
				t.Fatalf("%s: keyword not in the theme's colour %s: %q", name, want, l)
			}
		}
		// Deterministic: a fresh transcript renders the same bytes.
		fresh := New(ctx)
		fresh.SetSize(60, 20)
		fresh.Reset([]conversation.Message{userMsg(1, "code please"), replyMsg(2, code), userMsg(3, "again"), done})
		settle(t, fresh)
		sameLines(t, tr, fresh)
	}
}
