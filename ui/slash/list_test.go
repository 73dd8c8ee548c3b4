package slash

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func hit(t testing.TB, l *List[env], k string) Result {
	t.Helper()
	res, cmd := l.Update(press(k))
	if cmd != nil {
		if r := run(t, l, cmd); r.Outcome == Replace {
			return r
		}
	}
	return res
}

func highlighted(l List[env]) string {
	switch l.mode {
	case modeName:
		if i, ok := l.names.Selected(); ok {
			return l.reg.cmds[i].Name
		}
	case modeArgs:
		if c, ok := l.candList.Selected(); ok {
			return c.Value
		}
	}
	return ""
}

func candValues(l List[env]) []string {
	var out []string
	for _, c := range l.cands {
		out = append(out, c.Value)
	}
	return out
}

func TestOpenFilterRun(t *testing.T) {
	l := newTestList(t)
	if l.IsOpen() {
		t.Fatal("a new list is open")
	}
	typeInto(t, &l, "/")
	if !l.IsOpen() || l.names.Len() != len(l.reg.cmds) || highlighted(l) != "model" {
		t.Fatalf("open on /: %d matches, highlighted %q", l.names.Len(), highlighted(l))
	}
	typeInto(t, &l, "/th")
	if highlighted(l) != "theme" {
		t.Fatalf("/th highlights %q", highlighted(l))
	}
	res := hit(t, &l, "enter")
	if res.Outcome != Run || res.Invocation.Name != "theme" || res.Invocation.Args != "" {
		t.Fatalf("enter = %+v", res)
	}
	if l.IsOpen() {
		t.Error("the list stayed open after running a command")
	}
}

// The arrows, ctrl+p/ctrl+n, shift+tab and the page keys move without
// wrapping around; home and end stay the composer's.
func TestMoveStopsAtTheEnds(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	n := l.names.Len()
	for _, step := range []struct {
		k    string
		want int
	}{{"down", 1}, {"ctrl+n", 2}, {"ctrl+p", 1}, {"up", 0}, {"up", 0}, {"shift+tab", 0}, {"pgdown", MaxRows - 1}, {"pgdown", n - 1}, {"down", n - 1}, {"pgup", n - MaxRows}} {
		if res := hit(t, &l, step.k); res.Outcome != Consumed {
			t.Fatalf("%s: outcome %v", step.k, res.Outcome)
		}
		if l.cursor() != step.want {
			t.Fatalf("after %s the cursor is %d, want %d", step.k, l.cursor(), step.want)
		}
	}
	for _, k := range []string{"home", "end"} {
		if res, _ := l.Update(press(k)); res.Outcome != Pass {
			t.Errorf("%s: outcome %v, want Pass (the composer's)", k, res.Outcome)
		}
	}
	// Typing resets the highlight to the best match.
	typeInto(t, &l, "/n")
	if l.cursor() != 0 || highlighted(l) != "new" {
		t.Errorf("after typing: cursor %d on %q", l.cursor(), highlighted(l))
	}
}

func TestTabCompletesNameThenArgument(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/mo")
	res := hit(t, &l, "tab")
	if res.Outcome != Replace || res.Text != "/model " {
		t.Fatalf("tab on /mo = %+v", res)
	}
	// The list asked /model for candidates: every model, nothing typed yet.
	if got := candValues(l); !slices.Equal(got, testEnv().models) {
		t.Fatalf("candidates = %q", got)
	}
	// No common prefix: tab takes the highlighted one, with a space.
	res = hit(t, &l, "tab")
	if res.Outcome != Replace || res.Text != "/model gpt-4o " {
		t.Fatalf("tab on /model = %+v", res)
	}

	// A common prefix longer than the word is completed first, without a
	// space; then the highlighted one.
	typeInto(t, &l, "/model gp")
	if res = hit(t, &l, "tab"); res.Text != "/model gpt-4o" {
		t.Fatalf("tab on gp = %+v", res)
	}
	if res = hit(t, &l, "tab"); res.Text != "/model gpt-4o " {
		t.Fatalf("second tab = %+v", res)
	}

	// Once the user moved, tab takes what is highlighted.
	typeInto(t, &l, "/model gp")
	hit(t, &l, "down")
	if res = hit(t, &l, "tab"); res.Text != "/model gpt-4o-mini " {
		t.Fatalf("tab after down = %+v", res)
	}
	// Enter runs the typed line.
	res = hit(t, &l, "enter")
	if res.Outcome != Run || res.Invocation.Name != "model" || res.Invocation.Args != "gpt-4o-mini" {
		t.Fatalf("enter = %+v", res)
	}
}

func TestEnterRunsWhatIsTypedOrTheMovedCandidate(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/theme dra")
	res := hit(t, &l, "enter")
	if res.Outcome != Run || res.Invocation.Args != "dra" {
		t.Fatalf("enter without moving = %+v (it runs what is typed)", res)
	}
	typeInto(t, &l, "/theme d")
	hit(t, &l, "down")
	res = hit(t, &l, "enter")
	if res.Outcome != Run || res.Invocation.Args != "dracula" {
		t.Fatalf("enter after moving = %+v", res)
	}
}

func TestEscClosesKeepingText(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	if res := hit(t, &l, "esc"); res.Outcome != Closed || res.Text != "" || l.IsOpen() {
		t.Errorf("esc on / = %+v, open %v", res, l.IsOpen())
	}
	typeInto(t, &l, "/mo")
	if res := hit(t, &l, "esc"); res.Outcome != Closed || res.Text != "/mo" {
		t.Errorf("esc on /mo = %+v", res)
	}
	// Closed, the list ignores keys and input.
	if res, _ := l.Update(press("down")); res.Outcome != Pass {
		t.Errorf("a closed list took a key: %+v", res)
	}
	if cmd := l.SetInput("/model"); cmd != nil || l.IsOpen() {
		t.Error("SetInput reopened the list")
	}
}

func TestLiteralSlash(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	typeInto(t, &l, "//etc/hosts is empty")
	if !strings.Contains(plain(l.View(60, 5)), "enter sends “/etc/hosts is empty” as a message") {
		t.Errorf("literal view:\n%s", plain(l.View(60, 5)))
	}
	res := hit(t, &l, "enter")
	if res.Outcome != Send || res.Text != "/etc/hosts is empty" || l.IsOpen() {
		t.Errorf("enter on //text = %+v", res)
	}
}

func TestUnknownCommandSuggests(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/modle")
	if l.names.Len() != 0 || l.sugg != "model" {
		t.Fatalf("matches %d, suggestion %q", l.names.Len(), l.sugg)
	}
	view := plain(l.View(80, 6))
	if !strings.Contains(view, "no command matches “/modle”") || !strings.Contains(view, "did you mean /model?") || !strings.Contains(view, "tab takes /model") {
		t.Errorf("view:\n%s", view)
	}
	res := hit(t, &l, "enter")
	var ue *UnknownError
	if res.Outcome != Fail || !errors.As(res.Err, &ue) || ue.Suggestion != "model" || !l.IsOpen() {
		t.Fatalf("enter = %+v (the list must stay open with the text)", res)
	}
	if res = hit(t, &l, "tab"); res.Outcome != Replace || res.Text != "/model " {
		t.Errorf("tab on an unknown name = %+v", res)
	}
}

func TestEnterOnACommandThatNeedsArguments(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/ima")
	res := hit(t, &l, "enter")
	if res.Outcome != Replace || res.Text != "/image " || !l.IsOpen() {
		t.Fatalf("enter on /ima = %+v", res)
	}
	res = hit(t, &l, "enter")
	if res.Outcome != Fail || !strings.Contains(res.Err.Error(), "/image is missing its arguments") {
		t.Fatalf("enter on /image = %+v", res)
	}
	typeInto(t, &l, "/image a fox --n 3")
	res = hit(t, &l, "enter")
	if res.Outcome != Run || !slices.Equal(res.Invocation.Positional, []string{"a", "fox"}) || res.Invocation.Flags.String("n") != "3" {
		t.Fatalf("enter on a full /image = %+v", res)
	}
}

func TestSetInputClosesForMessages(t *testing.T) {
	for _, text := range []string{"", "hello", "/model\nsecond line"} {
		l := newTestList(t)
		typeInto(t, &l, "/")
		l.SetInput(text)
		if l.IsOpen() {
			t.Errorf("SetInput(%q) kept the list open", text)
		}
	}
}

func TestTypingPassesToTheComposer(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/")
	for _, k := range []string{"a", "backspace", "left", "ctrl+a", "ctrl+w", "space", "?"} {
		if res, _ := l.Update(press(k)); res.Outcome != Pass {
			t.Errorf("%s: outcome %v, want Pass", k, res.Outcome)
		}
	}
}

func TestLateCompletionsAreDropped(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/model ")
	first := l.SetInput("/model g")
	second := l.SetInput("/model l")
	if res, _ := l.Update(first()); res.Outcome != Consumed || len(l.cands) != 4 {
		// The candidates shown stay those of "/model " until the answer
		// for the text shown now arrives.
		t.Fatalf("a late answer was taken: %q", candValues(l))
	}
	l.Update(second())
	if got := candValues(l); !slices.Equal(got, []string{"llava-13b", "claude-sonnet"}) {
		t.Errorf("candidates = %q", got)
	}
}

func TestTabWhileCandidatesAreOnTheirWay(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/theme ")
	cmd := l.SetInput("/theme d")
	res, _ := l.Update(press("tab"))
	if res.Outcome != Consumed {
		t.Fatalf("tab before the answer = %+v", res)
	}
	res, _ = l.Update(cmd())
	if res.Outcome != Replace || res.Text != "/theme dark " {
		t.Fatalf("the answer after a tab = %+v", res)
	}
}

func TestChangingTheTextCancelsCompletion(t *testing.T) {
	started := make(chan struct{}, 4)
	r := NewRegistry[env]()
	err := r.Register(Command[env]{Name: "slow", Args: "[x]", Summary: "waits", Complete: func(ctx context.Context, a Arg, _ env) []Completion {
		started <- struct{}{}
		<-ctx.Done()
		return []Completion{{Value: "never"}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	l := NewList(testCtx(t, false), r)
	cmd := l.Open("/slow a")
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	<-started
	l.SetInput("/slow ab") // a new call; the first one's context ends
	select {
	case msg := <-done:
		if res, _ := l.Update(msg); res.Outcome != Consumed || len(l.cands) != 0 {
			t.Errorf("the cancelled call's answer was used: %q", candValues(l))
		}
	case <-time.After(time.Second):
		t.Fatal("the first Complete call was not cancelled")
	}
	l.Close() // and closing cancels the second
}

func TestOptionCompletion(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/image fox --")
	if got := candValues(l); !slices.Equal(got, []string{"--n", "--size", "--model"}) {
		t.Fatalf("option names = %q", got)
	}
	typeInto(t, &l, "/image fox --s")
	res := hit(t, &l, "tab")
	if res.Text != "/image fox --size " {
		t.Fatalf("tab on --s = %+v", res)
	}
	if l.arg.Flag != "size" || len(l.cands) != 3 {
		t.Fatalf("after --size: flag %q, candidates %q", l.arg.Flag, candValues(l))
	}
	typeInto(t, &l, "/image fox --size 15")
	if res = hit(t, &l, "tab"); res.Text != "/image fox --size 1536x1024 " {
		t.Fatalf("tab on a size = %+v", res)
	}
	typeInto(t, &l, "/image fox --model=cl")
	if l.arg.Flag != "model" || l.arg.Word != "cl" {
		t.Fatalf("--model=: %+v", l.arg)
	}
	if res = hit(t, &l, "tab"); res.Text != "/image fox --model=claude-sonnet " {
		t.Fatalf("tab on --model=cl = %+v", res)
	}
	// The positional index skips options and their values.
	typeInto(t, &l, "/image --n 2 fox in")
	if l.arg.Index != 1 || l.arg.Flag != "" || l.arg.Word != "in" {
		t.Errorf("arg = %+v", l.arg)
	}
}

func TestHostileCandidatesAreDropped(t *testing.T) {
	r := NewRegistry[env]()
	err := r.Register(Command[env]{Name: "model", Args: "[name]", Summary: "x", Complete: func(context.Context, Arg, env) []Completion {
		return []Completion{
			{Value: "evil\x1b]52;c;aGk=\x07"},
			{Value: "two\nlines"},
			{Value: ""},
			{Value: "fine", Detail: "detail \x1b[31mred", Display: "fine\x07"},
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	l := NewList(testCtx(t, false), r)
	run(t, &l, l.Open("/model "))
	if got := candValues(l); !slices.Equal(got, []string{"fine"}) {
		t.Fatalf("candidates = %q", got)
	}
	view := l.View(60, 6)
	if strings.Contains(view, "\x07") || strings.Contains(view, "\x1b[31m") {
		t.Errorf("the view carries the candidate's control sequences: %q", view)
	}
}

func TestSetEnvAsksAgain(t *testing.T) {
	l := newTestList(t)
	typeInto(t, &l, "/model ")
	e := testEnv()
	e.models = []string{"only-one"}
	run(t, &l, l.SetEnv(e))
	if got := candValues(l); !slices.Equal(got, []string{"only-one"}) {
		t.Errorf("after SetEnv: %q", got)
	}
}

func TestPathCompletionThroughTheList(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "My Pictures/shot one.png", "My Pictures/shot two.png", "notes.txt")
	l := NewList(testCtx(t, false), testCommands(t))
	e := testEnv()
	e.dir = dir
	l.SetEnv(e)
	typeInto(t, &l, "/attach My")
	res := hit(t, &l, "tab")
	if res.Text != `/attach My\ Pictures/` {
		t.Fatalf("tab on My = %+v", res)
	}
	// The directory's files are offered; their shared start completes.
	if got := candValues(l); !slices.Equal(got, []string{"My Pictures/shot one.png", "My Pictures/shot two.png"}) {
		t.Fatalf("candidates = %q", got)
	}
	if res = hit(t, &l, "tab"); res.Text != `/attach My\ Pictures/shot\ ` {
		t.Fatalf("second tab = %+v", res)
	}
	typeInto(t, &l, `/attach My\ Pictures/shot\ t`)
	if res = hit(t, &l, "tab"); res.Text != `/attach My\ Pictures/shot\ two.png ` {
		t.Fatalf("third tab = %+v", res)
	}
	res = hit(t, &l, "enter")
	if res.Outcome != Run || !slices.Equal(res.Invocation.Argv, []string{"My Pictures/shot two.png"}) {
		t.Fatalf("enter = %+v", res)
	}
}

// Complete runs with a deadline, so a hung file system cannot keep a
// completion waiting for ever; closing the list ends it at once.
func TestCompleteHasADeadline(t *testing.T) {
	got := make(chan time.Duration, 1)
	r := NewRegistry[env]()
	err := r.Register(Command[env]{Name: "probe", Args: "[x]", Summary: "x", Complete: func(ctx context.Context, _ Arg, _ env) []Completion {
		d, ok := ctx.Deadline()
		if !ok {
			got <- -1
			return nil
		}
		got <- time.Until(d)
		<-ctx.Done()
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	l := NewList(testCtx(t, false), r)
	cmd := l.Open("/probe ")
	finished := make(chan struct{})
	go func() { cmd(); close(finished) }()
	if d := <-got; d <= 0 || d > completeTimeout {
		t.Fatalf("deadline in %v, want within %v", d, completeTimeout)
	}
	l.Close()
	select {
	case <-finished:
	case <-time.After(time.Second):
		t.Fatal("closing the list did not end the Complete call")
	}
}
