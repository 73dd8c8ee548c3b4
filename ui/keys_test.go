package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/api/apitest"
	"parley/config"
)

func TestNewlineKeysGrowComposerThenScroll(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.typeText("line 1")
	for i, k := range []string{"shift+enter", "alt+enter", "ctrl+j"} {
		h.key(k)
		h.typeText(fmt.Sprintf("line %d", i+2))
	}
	if got := h.draft(); got != "line 1\nline 2\nline 3\nline 4" {
		t.Fatalf("composer %q", got)
	}
	if h.lay().ComposerText != 4 {
		t.Errorf("composer %d rows for 4 lines", h.lay().ComposerText)
	}
	for i := 5; i <= 12; i++ {
		h.key("ctrl+j")
		h.typeText(fmt.Sprintf("line %d", i))
	}
	if h.lay().ComposerText != maxComposerLines {
		t.Errorf("composer %d rows for 12 lines, want %d", h.lay().ComposerText, maxComposerLines)
	}
	if got := strings.Count(h.draft(), "\n"); got != 11 {
		t.Errorf("text has %d newlines", got)
	}
	// The view scrolled to the cursor: the last line is visible, the first not.
	scr := h.screen()
	if !strings.Contains(scr, "line 12") || strings.Contains(scr, "line 1\n") {
		t.Errorf("screen:\n%s", scr)
	}
	checkFrame(t, h.m, 80, 30)
	// Sending shrinks it back.
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	if h.lay().ComposerText != 1 {
		t.Errorf("composer %d rows after send", h.lay().ComposerText)
	}
	if u, _ := h.eng.Conv().LastUser(); strings.Count(u.Text, "\n") != 11 {
		t.Errorf("sent %q", u.Text)
	}
}

func TestEditLastMessageAndResend(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "answer one"}, apitest.Reply{Text: "answer two"})
	h.typeText("frist question")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })

	h.key("up")
	if !h.editing() || h.draft() != "frist question" {
		t.Fatalf("editing=%v composer=%q", h.editing(), h.draft())
	}
	if !strings.Contains(h.screen(), "editing: enter sends it as a new branch") {
		t.Errorf("status does not show edit mode:\n%s", h.screen())
	}
	// Fix the typo: go to the start, delete "fr", type "fi".
	h.key("ctrl+a")
	h.key("delete")
	h.key("delete")
	h.key("delete")
	h.key("delete")
	h.key("delete")
	h.typeText("first")
	h.key("enter")
	h.wait("second answer", func() bool { return !h.streaming() })
	msgs := h.eng.Conv().Messages()
	if len(msgs) != 2 || msgs[0].Text != "first question" || msgs[1].Text != "answer two" {
		t.Fatalf("conversation %+v", msgs)
	}
	req := h.srv.Requests()[1].Chat.Messages
	if len(req) != 1 || req[0].Content.PlainText() != "first question" {
		t.Errorf("resend request %+v", req)
	}
	if strings.Contains(h.screen(), "frist") || strings.Contains(h.screen(), "answer one") {
		t.Errorf("old turn still shown:\n%s", h.screen())
	}
	// The title follows the edited first message (status bar, window).
	if got := h.m.View().WindowTitle; got != "first question — parley" || h.eng.Conv().Title() != "first question" {
		t.Errorf("title %q / window title %q", h.eng.Conv().Title(), got)
	}
}

func TestEscLeavesEditModeWithoutLosingAnything(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "answer"})
	h.typeText("question")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })

	// Unchanged: esc clears the composer; the message stays.
	h.key("up")
	h.key("esc")
	if h.editing() || h.draft() != "" || h.eng.Conv().Len() != 2 {
		t.Fatalf("editing=%v composer=%q len=%d", h.editing(), h.draft(), h.eng.Conv().Len())
	}
	// Changed: esc keeps the new text as a new message.
	h.key("up")
	h.typeText(" again")
	h.key("esc")
	if h.editing() || h.draft() != "question again" {
		t.Fatalf("editing=%v composer=%q", h.editing(), h.draft())
	}
	if u, _ := h.eng.Conv().LastUser(); u.Text != "question" || h.eng.Conv().Len() != 2 {
		t.Fatalf("conversation changed: %q", u.Text)
	}
}

func TestUpInNonEmptyComposerMovesTheCursor(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "answer"})
	h.typeText("question")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	h.typeText("a")
	h.key("ctrl+j")
	h.typeText("b")
	h.key("up")
	if h.editing() || h.textarea().Line() != 0 {
		t.Fatalf("editing=%v line=%d", h.editing(), h.textarea().Line())
	}
}

func TestHelpKeys(t *testing.T) {
	h := newHarness(t, 80, 24)
	// ? is a question mark, even in an empty composer: help is on F1 and
	// /help.
	h.key("?")
	if h.m.layerName() != "" || h.draft() != "?" {
		t.Fatalf("? in an empty composer: layer %q, composer %q", h.m.layerName(), h.draft())
	}
	h.key("backspace")
	h.key("f1")
	if h.m.layerName() != "help" {
		t.Fatal("f1 did not open help")
	}
	checkFrame(t, h.m, 80, 24)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 60})
	scr := h.screen()
	for _, want := range []string{"send", "ctrl+r", "copy code block", "alt+1…9", "ctrl+o", "quit"} {
		if !strings.Contains(scr, want) {
			t.Errorf("help lacks %q:\n%s", want, scr)
		}
	}
	checkFrame(t, h.m, 120, 60)
	// On a small screen the help takes the whole screen, not the few rows
	// above the composer.
	h.send(tea.WindowSizeMsg{Width: 40, Height: 12})
	checkFrame(t, h.m, 40, 12)
	if scr := h.screen(); h.lay().OverlayKind != overlayFull || !strings.Contains(scr, "1–9/") || strings.Contains(scr, "Message gpt-4o") {
		t.Errorf("help at 40x12 (overlay %v):\n%s", h.lay().OverlayKind, scr)
	}
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if h.lay().OverlayKind != overlayPanel || !strings.Contains(h.screen(), "Message gpt-4o") {
		t.Errorf("help at 80x24 (overlay %v):\n%s", h.lay().OverlayKind, h.screen())
	}
	h.key("esc")
	if h.m.layerName() != "" || h.lay().OverlayKind != overlayNone {
		t.Fatal("esc did not close help")
	}
	if !strings.Contains(h.screen(), "f1 help") {
		t.Errorf("hint for an empty composer:\n%s", h.screen())
	}
	h.typeText("why?")
	if h.m.layerName() != "" || h.draft() != "why?" {
		t.Fatalf("open=%v composer=%q", h.m.layerName(), h.draft())
	}
	if scr := h.screen(); !strings.Contains(scr, "f1 help") {
		t.Errorf("hint with text in the composer:\n%s", scr)
	}
	h.key("f1")
	if h.m.layerName() != "help" {
		t.Fatal("f1 did not open help")
	}
	h.key("f1")
	if h.m.layerName() != "" || h.draft() != "why?" {
		t.Fatalf("open=%v composer=%q", h.m.layerName(), h.draft())
	}
}

func TestHelpShowsOverriddenKeys(t *testing.T) {
	cfg := &config.Config{Keys: map[string][]string{"model_picker": {"f8"}}}
	h := newHarness(t, 100, 40, func(o *Options) { o.Config = cfg })
	h.key("f1")
	scr := h.screen()
	if !strings.Contains(scr, "f8") || strings.Contains(scr, "ctrl+o") {
		t.Errorf("help does not follow the override:\n%s", scr)
	}
	h.key("esc")
	h.key("f8")
	if h.m.layerName() != "models" {
		t.Error("f5 did not open the model picker")
	}
}

func TestKeyProblemsShowInBanner(t *testing.T) {
	cfg := &config.Config{Keys: map[string][]string{"lauch": {"f5"}, "retry": {"ctrl+i"}, "copy_reply": {"ctrl+o"}}}
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = cfg })
	scr := h.screen()
	// An unknown action, a key terminals cannot tell apart, and a conflict
	// (copy_reply takes model_picker's ctrl+o).
	for _, want := range []string{"problems at start", "lauch", "ctrl+i", "ctrl+o now runs copy_reply"} {
		if !strings.Contains(scr, want) {
			t.Errorf("banner lacks %q:\n%s", want, scr)
		}
	}
	checkFrame(t, h.m, 120, 30)
	// The override is live and the conflict resolved as the banner says.
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	replyWith(t, h, "copy me")
	h.key("ctrl+o")
	h.wait("copied", func() bool { return strings.Contains(h.screen(), "reply copied") })
	if h.m.layerName() != "" {
		t.Errorf("ctrl+o still opens the model picker")
	}
	h = newHarness(t, 80, 24, func(o *Options) { o.Config = cfg })
	checkFrame(t, h.m, 80, 24)
	h.key("esc")
	if strings.Contains(h.screen(), "problems at start") {
		t.Errorf("esc did not dismiss the banner:\n%s", h.screen())
	}
	checkFrame(t, h.m, 80, 24)
}

func TestScrollKeys(t *testing.T) {
	h := newHarness(t, 80, 24)
	long := strings.Repeat("many lines of answer\n\n", 40)
	h.srv.Enqueue(apitest.Reply{Text: long})
	h.typeText("q")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	if !h.atBottom() {
		t.Fatal("not at the bottom after the reply")
	}
	h.key("pgup")
	if h.atBottom() {
		t.Fatal("pgup did not scroll")
	}
	h.key("pgdown")
	h.key("pgdown")
	h.key("pgdown")
	h.key("pgdown")
	h.key("pgdown")
	if !h.atBottom() {
		t.Fatal("pgdown did not come back")
	}
	h.key("home")
	if h.atBottom() || !strings.Contains(h.screen(), "You") {
		t.Fatalf("home did not go to the top:\n%s", h.screen())
	}
	h.key("end")
	if !h.atBottom() {
		t.Fatal("end did not go to the bottom")
	}
	// With text in the composer home/end edit the text instead.
	h.typeText("abc")
	h.key("home")
	if !h.atBottom() || h.textarea().Column() != 0 {
		t.Fatalf("home with text: bottom=%v col=%d", h.atBottom(), h.textarea().Column())
	}
}

func TestMouseIsOffByDefaultAndToggles(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: strings.Repeat("line\n\n", 40)})
	h.typeText("q")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	if h.m.View().MouseMode != tea.MouseModeNone {
		t.Fatal("mouse captured by default")
	}
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if !h.atBottom() {
		t.Fatal("wheel scrolled without mouse mode")
	}
	h.key("f2")
	if h.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("f2 did not turn the mouse on")
	}
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if h.atBottom() {
		t.Fatal("wheel did not scroll")
	}
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	h.key("f2")
	if h.m.View().MouseMode != tea.MouseModeNone {
		t.Fatal("f2 did not release the mouse")
	}
	// Config mouse = true turns it on at start.
	h2 := newHarness(t, 80, 24, func(o *Options) { o.Mouse = true })
	if h2.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("Options.Mouse ignored")
	}
}

func TestNewConversationNeedsTwoPresses(t *testing.T) {
	h := newHarness(t, 80, 24)
	// An empty conversation is never a blank screen: it says how to start.
	welcome := func() bool {
		scr := h.screen()
		return strings.Contains(scr, "Ask anything: type below, enter sends.") && strings.Contains(scr, "f1 or /help shows every key.")
	}
	if !welcome() {
		t.Fatalf("no welcome:\n%s", h.screen())
	}
	checkFrame(t, h.m, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "answer"})
	h.typeText("question")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	if welcome() {
		t.Fatalf("welcome over the conversation:\n%s", h.screen())
	}
	h.key("ctrl+l")
	if h.eng.Conv().Len() != 2 || !strings.Contains(h.screen(), "again to start a new conversation") {
		t.Fatalf("first press: len=%d\n%s", h.eng.Conv().Len(), h.screen())
	}
	h.clock.advance(500 * time.Millisecond)
	h.key("ctrl+l")
	if h.eng.Conv().Len() != 0 || strings.Contains(h.screen(), "question") || h.m.View().WindowTitle != "parley" {
		t.Fatalf("second press: len=%d\n%s", h.eng.Conv().Len(), h.screen())
	}
	if !welcome() {
		t.Fatalf("no welcome in the new conversation:\n%s", h.screen())
	}
	// The next message starts a fresh request.
	h.srv.Enqueue(apitest.Reply{Text: "fresh"})
	h.typeText("new topic")
	h.key("enter")
	h.wait("done", func() bool { return !h.streaming() })
	if n := len(h.srv.Requests()[1].Chat.Messages); n != 1 {
		t.Errorf("new conversation sent %d messages", n)
	}
}

// checkFrame asserts the view is exactly w x h cells.
func checkFrame(t *testing.T, m *Model, w, h int) {
	t.Helper()
	lines := strings.Split(m.View().Content, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

func TestKeyboardEnhancementsShowShiftEnter(t *testing.T) {
	h := newHarness(t, 100, 24)
	if strings.Contains(h.screen(), "shift+enter") || !strings.Contains(h.screen(), "alt+enter new line") {
		t.Fatalf("legacy terminal hint:\n%s", h.screen())
	}
	h.send(tea.KeyboardEnhancementsMsg{Flags: 1})
	if !strings.Contains(h.screen(), "shift+enter new line") {
		t.Fatalf("enhanced terminal hint:\n%s", h.screen())
	}
}

func TestClientWarningsShownOnce(t *testing.T) {
	h := newHarness(t, 100, 24, func(o *Options) {
		o.NewClient = func(string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: "http://gateway.example.com/v1", APIKey: "k"})
		}
	})
	c, err := h.opts.NewClient("gpt-4o")
	if err != nil || len(c.Warnings()) == 0 {
		t.Fatalf("the api package gives no warning for plain http to a remote host (%v)", err)
	}
	h.run(h.m.Init())
	h.wait("client", func() bool { _, ok := h.eng.Clients().Ready("gpt-4o"); return ok })
	h.wait("warning", func() bool { return func() bool { text, kind := h.notice(); return kind == toastWarn && text != "" }() })
	// The cached client is used; no second build.
	if prepareClient(h.eng.Clients(), "gpt-4o") != nil {
		t.Error("client built twice")
	}
}

// The help names every slash command of the action table, with its
// arguments: /set, /role, /attach latest, /screenshot and /thinking
// among them.
func TestHelpListsEveryCommand(t *testing.T) {
	h := newHarness(t, 120, 30)
	h.key("f1")
	if h.m.layerName() != "help" {
		t.Fatal("f1 did not open help")
	}
	// Page through the whole help, keeping every screen.
	var seen strings.Builder
	for range 40 {
		seen.WriteString(h.screen())
		h.key("pgdown")
	}
	flat := strings.Join(strings.Fields(seen.String()), " ")
	for _, c := range newActionTable(chatActions()).commands.Commands() {
		if !strings.Contains(flat, "/"+c.Name+" ") {
			t.Errorf("the help does not name /%s", c.Name)
		}
	}
	for _, want := range []string{"/set [NAME VALUE|NAME --clear]: set a parameter", "/role [NAME|--clear]: give this conversation a role",
		"/attach [PATH|URL…|latest]: attach", "/screenshot draw a region", "/thinking show or fold"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the help lacks %q", want)
		}
	}
}
