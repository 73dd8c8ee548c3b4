package columns

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/themes"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

func testCtx(t testing.TB) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 200, Height: 40, Theme: th, Styles: th.Styles(false), Glamour: th.Glamour(false), Keys: keys.Default()}
}

func replies(state conversation.State) []Reply {
	return []Reply{
		{ID: 2, Model: "gpt-4o", Text: "# Alpha\n\nThe **first** answer.", State: state, Elapsed: 2 * time.Second, Tokens: 120, Rate: 60, Cost: "$0.0042"},
		{ID: 3, Model: "llava", Text: "Second answer.", Reasoning: "hmm", Thought: 1500 * time.Millisecond, State: state, Tokens: 40},
		{ID: 4, Model: "llama3", State: conversation.StateFailed, Err: "HTTP 500: the llama crashed"},
	}
}

func key(k string) tea.KeyPressMsg {
	switch k {
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

// Wide enough for every column of 50 cells, the replies stand side by
// side, each headed by its model with its figures and cost, the failed
// one with its error; every row is exactly the width.
func TestColumnsSideBySide(t *testing.T) {
	ctx := testCtx(t)
	v := New("Which tea?", []int{2, 3, 4})
	rs := replies(conversation.StateDone)
	v.Sync(ctx, 200, rs)
	out := v.View(ctx, 200, 20, rs)
	plain := ansi.Strip(out)
	rows := strings.Split(plain, "\n")
	if len(rows) != 20 {
		t.Fatalf("%d rows, want 20", len(rows))
	}
	for i, r := range rows {
		if w := cells.Width(r); w != 200 {
			t.Fatalf("row %d is %d cells wide: %q", i, w, r)
		}
	}
	for _, want := range []string{"Compare · Which tea?", "▶ 1 · gpt-4o", "2 · llava", "3 · llama3", "$0.0042", "60 tok/s", "120 tok", "▸ Thought for 1.5 s", "✗ failed", "the llama crashed", "Alpha", "Second answer."} {
		if !strings.Contains(plain, want) {
			t.Fatalf("missing %q in\n%s", want, plain)
		}
	}
	if !strings.Contains(rows[1], "gpt-4o") || !strings.Contains(rows[1], "llava") {
		t.Fatalf("the heads do not share a row: %q", rows[1])
	}
	if strings.Contains(plain, "$0.00 ") {
		t.Fatal("a reply without a price shows a cost")
	}
}

// Narrower than three columns of 50 cells, one reply shows at a time as
// ‹ i/n ›, and ←/→ go through them.
func TestColumnsStackWhenNarrow(t *testing.T) {
	ctx := testCtx(t)
	v := New("q", []int{2, 3, 4})
	rs := replies(conversation.StateDone)
	v.Sync(ctx, 80, rs)
	plain := ansi.Strip(v.View(ctx, 80, 12, rs))
	if !strings.Contains(plain, "‹ 1/3 › gpt-4o") || strings.Contains(plain, "Second answer") {
		t.Fatalf("narrow view:\n%s", plain)
	}
	if _, ok := v.Key(key("right"), true, 8); !ok {
		t.Fatal("→ not taken")
	}
	v.Sync(ctx, 80, rs)
	plain = ansi.Strip(v.View(ctx, 80, 12, rs))
	if !strings.Contains(plain, "‹ 2/3 › llava") || !strings.Contains(plain, "Second answer.") {
		t.Fatalf("after →:\n%s", plain)
	}
	if Fits(3, 155) || !Fits(3, 156) || !Fits(4, 209) {
		t.Fatal("Fits does not follow 50 cells a column")
	}
}

// While the replies stream, digits focus and x stops the focused one;
// once they ended, digits and enter pick, esc closes, and a key the view
// does not use is left to the composer.
func TestColumnsKeys(t *testing.T) {
	v := New("q", []int{2, 3, 4})
	if a, ok := v.Key(key("2"), false, 10); !ok || a.Kind != None || v.Focus() != 1 {
		t.Fatalf("2 while streaming: %+v %v, focus %d", a, ok, v.Focus())
	}
	if a, ok := v.Key(key("x"), false, 10); !ok || a.Kind != Stop || a.ID != 3 {
		t.Fatalf("x: %+v %v", a, ok)
	}
	if _, ok := v.Key(key("esc"), false, 10); ok {
		t.Fatal("esc while streaming is the owner's (stop all)")
	}
	if a, ok := v.Key(key("3"), true, 10); !ok || a.Kind != Pick || a.ID != 4 {
		t.Fatalf("3 when done: %+v %v", a, ok)
	}
	v.Key(key("left"), true, 10)
	if a, ok := v.Key(key("enter"), true, 10); !ok || a.Kind != Pick || a.ID != 3 {
		t.Fatalf("← enter: %+v %v", a, ok)
	}
	if a, ok := v.Key(key("esc"), true, 10); !ok || a.Kind != Close {
		t.Fatalf("esc when done: %+v %v", a, ok)
	}
	for _, k := range []string{"h", "x", "5"} {
		if _, ok := v.Key(key(k), true, 10); ok {
			t.Fatalf("%q was taken from the composer", k)
		}
	}
	if !v.Together() {
		t.Fatal("scrolling starts together")
	}
	v.Key(key("tab"), true, 10)
	if v.Together() || !strings.Contains(v.Hints(true)[2].Desc, "this one") {
		t.Fatalf("tab did not toggle: %+v", v.Hints(true))
	}
}

// Scrolling moves every column together, or the focused one alone.
func TestColumnsScroll(t *testing.T) {
	ctx := testCtx(t)
	long := strings.Repeat("line\n\n", 40)
	rs := []Reply{{ID: 1, Model: "a", Text: "first-top\n\n" + long, State: conversation.StateDone}, {ID: 2, Model: "b", Text: "second-top\n\n" + long, State: conversation.StateDone}}
	v := New("q", []int{1, 2})
	v.Sync(ctx, 120, rs)
	h := 15
	plain := ansi.Strip(v.View(ctx, 120, h, rs))
	if strings.Contains(plain, "first-top") {
		t.Fatalf("a long answer does not follow its end:\n%s", plain)
	}
	v.Key(key("h"), true, BodyHeight(h)) // not a scroll key
	for range 100 {
		v.scroll("up", BodyHeight(h))
	}
	plain = ansi.Strip(v.View(ctx, 120, h, rs))
	if !strings.Contains(plain, "first-top") || !strings.Contains(plain, "second-top") {
		t.Fatalf("together, both columns scroll to the top:\n%s", plain)
	}
	v.Key(key("tab"), true, BodyHeight(h))
	v.Key(key("pgdown"), true, BodyHeight(h))
	plain = ansi.Strip(v.View(ctx, 120, h, rs))
	if strings.Contains(plain, "first-top") || !strings.Contains(plain, "second-top") {
		t.Fatalf("alone, only the focused column scrolls:\n%s", plain)
	}
}

// Model output and errors reach the screen made safe: no escape of
// theirs survives, a model name cannot take more than its line.
func TestColumnsSanitise(t *testing.T) {
	ctx := testCtx(t)
	rs := []Reply{
		{ID: 1, Model: "evil\x1b]0;pwned\x07\nmodel", Text: "hi \x1b[2J there \x1b]52;c;aGk=\x07", State: conversation.StateDone},
		{ID: 2, Model: "b", State: conversation.StateFailed, Err: "bad \x1b[31mred\x1b[0m\x9b"},
	}
	v := New("q\x1b[2J", []int{1, 2})
	v.Sync(ctx, 120, rs)
	out := v.View(ctx, 120, 12, rs)
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07"} {
		if strings.Contains(out, bad) {
			t.Fatalf("%q reached the screen:\n%q", bad, out)
		}
	}
	if strings.ContainsRune(out, 0x9b) {
		t.Fatalf("a C1 CSI reached the screen:\n%q", out)
	}
}
