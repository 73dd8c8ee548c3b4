package ui

import (
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/api/apitest"
	"parley/conversation"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/sidepane"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// These tests add one of each kind of extension the way ARCHITECTURE.md
// says, and check that the root treats it like the built-in ones.

// wordsLayer is an overlay added by a test: it collects the letters typed
// and closes on enter, with the help's action (a test cannot add a case
// to handleResult; a new overlay of the app adds one for its own result).
type wordsLayer struct {
	typed string
	w, h  int
}

func (l *wordsLayer) SetSize(w, h int) { l.w, l.h = w, h }
func (l *wordsLayer) Draw() (string, int, int) {
	return "[typed: " + l.typed + "]", 1, 1
}
func (l *wordsLayer) Hints() []uictx.Hint { return []uictx.Hint{{Key: "enter", Desc: "done typing"}} }
func (l *wordsLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	if k.Keystroke() == "enter" {
		return nil, overlay.HelpClosed{}
	}
	l.typed += k.Text
	return nil, nil
}

func TestExtendWithAnOverlay(t *testing.T) {
	h := newHarness(t, 80, 24)
	l := &wordsLayer{}
	h.pushLayer(l, "words")
	h.send(struct{}{})
	h.typeText("abc")
	scr := h.screen()
	if !strings.Contains(scr, "[typed: abc]") || !strings.Contains(scr, "done typing") {
		t.Fatalf("the overlay is not drawn with its hints:\n%s", scr)
	}
	if h.draft() != "" {
		t.Fatalf("keys reached the composer under the overlay: %q", h.draft())
	}
	// An app key it does not use closes it and acts.
	h.key("f4")
	if h.m.layerName() != "" {
		t.Fatalf("f4 left the overlay %q open", h.m.layerName())
	}
	if !strings.Contains(h.region(h.lay().Side), "Notices ·") {
		t.Fatalf("f4 did not open the notices with an overlay open:\n%s", h.screen())
	}
	// Its result closes it.
	h.pushLayer(l, "words")
	h.send(struct{}{})
	h.key("enter")
	if h.m.layerName() != "" {
		t.Fatalf("enter did not close the overlay: %q", h.m.layerName())
	}
}

// counterPane is a passive pane added by a test: it shows how many
// messages the conversation has.
type counterPane struct {
	draws, w, h int
	in          sidepane.Input
}

func (p *counterPane) Name() string                           { return "counter" }
func (p *counterPane) SetSize(w, h int)                       { p.w, p.h = w, h }
func (p *counterPane) Show(in sidepane.Input, _ bool)         { p.in = in }
func (p *counterPane) Update(tea.Msg) (tea.Cmd, uictx.Action) { return nil, nil }
func (p *counterPane) Hints() []uictx.Hint                    { return nil }
func (p *counterPane) Draw() (string, int, int) {
	p.draws++
	lines := make([]string, p.h)
	for i := range lines {
		lines[i] = cells.Spaces(p.w)
	}
	lines[0] = cells.Fit("messages: "+itoa(p.in.Conv.Len()), p.w)
	return strings.Join(lines, "\n"), 0, 0
}

func TestExtendWithAPassivePane(t *testing.T) {
	h := newHarness(t, 120, 30)
	p := &counterPane{}
	h.m.togglePane(p)
	h.send(struct{}{})
	if !strings.Contains(h.screen(), "messages: 0") {
		t.Fatalf("the pane is not drawn:\n%s", h.screen())
	}
	if h.focusOn() != focusComposer {
		t.Fatal("a passive pane took the keys")
	}
	h.srv.Enqueue(apitest.Reply{Text: "hello"})
	h.typeText("hi")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	if !strings.Contains(h.screen(), "messages: 2") {
		t.Fatalf("the pane does not follow the conversation:\n%s", h.screen())
	}
	checkFrame(t, h.m, 120, 30)
}

// markPane is an interactive pane added by a test: it binds "x", which
// counts, and esc, which gives the keys back.
type markPane struct {
	counterPane
	marks int
}

func (p *markPane) Name() string { return "marks" }
func (p *markPane) Binds(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	return ok && (k.String() == "x" || k.Keystroke() == "esc")
}
func (p *markPane) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.Keystroke() == "esc" {
			return nil, focusComposerResult{}
		}
		p.marks++
	}
	return nil, nil
}
func (p *markPane) Hints() []uictx.Hint { return []uictx.Hint{{Key: "x", Desc: "mark"}} }

func TestExtendWithAnInteractivePane(t *testing.T) {
	h := newHarness(t, 120, 30)
	p := &markPane{}
	h.m.togglePane(p)
	h.send(struct{}{})
	if h.focusOn() != focusPane || !strings.Contains(h.screen(), "x mark") {
		t.Fatalf("the pane did not take the keys (focus %v):\n%s", h.focusOn(), h.screen())
	}
	if h.textarea().Focused() {
		t.Fatal("the composer looks focused while the pane has the keys")
	}
	h.key("x")
	h.key("x")
	if p.marks != 2 || h.draft() != "" {
		t.Fatalf("marks %d, composer %q", p.marks, h.draft())
	}
	// An app key works with the pane focused and leaves the focus there.
	h.key("ctrl+l")
	if h.focusOn() != focusPane {
		t.Fatal("an app key moved the focus")
	}
	// A key the pane does not bind goes to the composer, with the focus.
	h.typeText("/attach x")
	if h.focusOn() != focusComposer || h.draft() != "/attach x" {
		t.Fatalf("focus %v, composer %q", h.focusOn(), h.draft())
	}
	if !h.textarea().Focused() {
		t.Fatal("the composer is not marked focused")
	}
}

func echoCommand() slash.Command[commandEnv] {
	return slash.Command[commandEnv]{Name: "echo", Args: "[text]", Summary: "say it back"}
}

func TestExtendWithASlashCommand(t *testing.T) {
	h := newHarness(t, 80, 24)
	// A new command is one entry of the table: here a second name for
	// what /mouse does.
	table := newActionTable(append(chatActions(), action{cmd: echoCommand(), op: opMouse}))
	h.m.actions = table
	h.m.menu = commandMenu{slash.NewList(h.m.ctx, table.commands)}
	h.typeText("/ech")
	if !strings.Contains(h.screen(), "/echo") {
		t.Fatalf("the command list does not offer /echo:\n%s", h.screen())
	}
	h.typeText("o")
	h.key("enter")
	if scr := h.screen(); !strings.Contains(scr, "mouse wheel scrolls") && !strings.Contains(scr, "mouse released") || h.draft() != "" {
		t.Fatalf("/echo did not do what /mouse does (composer %q):\n%s", h.draft(), h.screen())
	}
}

// Every key action of the chat has a handler in the action table (or is
// the composer's own: the newline key, the list keys of the layers), and
// every command of the table has one.
func TestEveryActionHasAHandler(t *testing.T) {
	composerOwn := map[string]bool{keys.Newline: true, keys.ListUp: true, keys.ListDown: true, keys.Select: true, keys.Close: true}
	table := chatActions()
	byKey := map[string]bool{}
	used := map[op]bool{}
	for _, a := range table {
		if a.op == opNone {
			t.Errorf("action %q /%s does nothing", a.key, a.cmd.Name)
		}
		used[a.op] = true
		if a.key != "" {
			if byKey[a.key] {
				t.Errorf("key action %q is in the table twice", a.key)
			}
			byKey[a.key] = true
		}
	}
	for o := opNone + 1; o <= opPageDown; o++ {
		if !used[o] {
			t.Errorf("op %d is in no action of the table", o)
		}
	}
	for _, name := range keys.Actions() {
		if !byKey[name] && !composerOwn[name] {
			t.Errorf("key action %q has no handler in the action table", name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a table with a command without a handler was accepted")
		}
	}()
	newActionTable([]action{{cmd: echoCommand()}})
}

// recordingListener is a listener added by a test.
type recordingListener struct {
	mu    sync.Mutex
	kinds []conversation.ChangeKind
}

func (l *recordingListener) OnChange(c conversation.Change) {
	l.mu.Lock()
	l.kinds = append(l.kinds, c.Kind)
	l.mu.Unlock()
}

func (l *recordingListener) appends() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, k := range l.kinds {
		if k == conversation.ChangeAppend {
			n++
		}
	}
	return n
}

func TestExtendWithAListenerThatSurvivesNewConversations(t *testing.T) {
	h := newHarness(t, 80, 24)
	l := &recordingListener{}
	h.eng.Listen(l)
	for i, q := range []string{"one", "two"} {
		h.srv.Enqueue(apitest.Reply{Text: "answer"})
		h.typeText(q)
		h.key("enter")
		h.wait("the reply", func() bool { return !h.streaming() })
		if got := l.appends(); got != 2*(i+1) {
			t.Fatalf("turn %d: the listener heard %d appends", i+1, got)
		}
		// A new conversation: the listener goes on hearing.
		h.key("ctrl+l")
		h.key("ctrl+l")
		if h.eng.Conv().Len() != 0 {
			t.Fatal("no new conversation")
		}
	}
	// An opened session: the listener hears its turns too.
	h.srv.Enqueue(apitest.Reply{Text: "answer"})
	h.typeText("three")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	snap := h.eng.Conv().Snapshot()
	h.key("ctrl+l")
	h.key("ctrl+l")
	h.m.openConversation(h.eng.Restore("opened", snap), len(snap.Messages))
	if h.eng.Conv().Len() != 2 {
		t.Fatalf("the opened conversation has %d messages", h.eng.Conv().Len())
	}
	before := l.appends()
	h.srv.Enqueue(apitest.Reply{Text: "answer"})
	h.typeText("four")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	if got := l.appends() - before; got != 2 {
		t.Fatalf("after opening a session the listener heard %d appends, want 2", got)
	}
}
