package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/api/apitest"
	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/ui/overlay"
	"parley/ui/transcript"
	"parley/ui/uictx"
)

// probeLayer is a layer for the stack tests: it records what it receives
// and closes on "x", with the help's action (the root closes the top
// layer).
type probeLayer struct {
	got  []string
	w, h int
}

func (p *probeLayer) SetSize(w, h int)         { p.w, p.h = w, h }
func (p *probeLayer) Draw() (string, int, int) { return "[probe]", 2, 1 }
func (p *probeLayer) Hints() []uictx.Hint {
	return []uictx.Hint{{Key: "x", Desc: "close the probe"}}
}
func (p *probeLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	p.got = append(p.got, k.String())
	if k.String() == "x" {
		return nil, overlay.HelpClosed{}
	}
	return nil, nil
}

func TestLayerStackRoutesToTopAndAppliesEffects(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.key("f1")
	if h.m.layerName() != "help" {
		t.Fatalf("top %q", h.m.layerName())
	}
	p := &probeLayer{}
	h.pushLayer(p, "probe")
	h.send(tea.WindowSizeMsg{Width: 90, Height: 30})
	if h.m.layerName() != "probe" || p.w != 90 || p.h == 0 {
		t.Fatalf("top %q, probe sized %dx%d", h.m.layerName(), p.w, p.h)
	}
	scr := h.screen()
	if !strings.Contains(scr, "[probe]") || !strings.Contains(scr, "close the probe") {
		t.Fatalf("the top layer is not drawn with its hints:\n%s", scr)
	}
	h.key("a")
	h.key("x")
	if strings.Join(p.got, ",") != "a,x" {
		t.Fatalf("probe got %q", p.got)
	}
	// Its result was acted on: popped; help is on top again.
	if h.m.layerName() != "help" {
		t.Fatalf("after x: top %q\n%s", h.m.layerName(), h.screen())
	}
	if h.textarea().Focused() {
		t.Fatal("the composer has the focus under an open layer")
	}
	h.key("esc")
	if h.m.layerName() != "" || !h.textarea().Focused() {
		t.Fatalf("after esc: top %q, composer focused %v", h.m.layerName(), h.textarea().Focused())
	}
}

// The status bar is derived: a key that changes one of its inputs shows in
// the very frame of that key, with no render call at the call site.
func TestDerivedStatusFollowsToggle(t *testing.T) {
	h := newHarness(t, 80, 24)
	if strings.Contains(h.screen(), "🖱") {
		t.Fatal("mouse marker before f2")
	}
	h.key("f2")
	if !strings.Contains(h.screen(), "🖱") {
		t.Fatalf("no mouse marker after f2:\n%s", h.screen())
	}
	h.key("f2")
	if strings.Contains(h.screen(), "🖱") {
		t.Fatalf("stale mouse marker after the second f2:\n%s", h.screen())
	}
	// A change of the model outside any key (a layer's effect) shows too.
	h.useModel("llama3")
	h.send(struct{}{})
	if !strings.Contains(h.screen(), "● llama3") {
		t.Fatalf("status does not follow the model:\n%s", h.screen())
	}
	checkFrame(t, h.m, 80, 24)
}

// The transcript follows the conversation's change events: a turn made
// through the conversation alone shows the same screen as a transcript
// given the finished messages.
func TestTranscriptFollowsConversationEvents(t *testing.T) {
	h := newHarness(t, 80, 24)
	cat := api.NewCatalog(nil)
	turn, err := h.eng.Conv().Begin(&conversation.UserInput{Text: "first question"}, conversation.TurnOptions{Model: "gpt-4o", Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"Here ", "is **bold** ", "and a list:\n\n- one\n- two\n"} {
		h.eng.Conv().Receive(turn, d, nil, "")
	}
	h.eng.Conv().Receive(turn, "", &api.Usage{PromptTokens: 3, CompletionTokens: 9}, "stop")
	if err := h.eng.Conv().Close(turn, nil); err != nil {
		t.Fatal(err)
	}
	renderAll(h.m)
	fresh := transcript.New(h.m.ctx)
	fresh.SetSize(max(h.lay().Transcript.W, 1), max(h.lay().Transcript.H, 1))
	fresh.Reset(h.eng.Conv().Messages())
	settleTranscript(fresh)
	if got, want := h.transcriptView(), fresh.List().View(); got != want {
		t.Fatalf("event-fed transcript differs:\n%s\n--- want ---\n%s", got, want)
	}
	if !strings.Contains(h.transcriptView(), "first question") {
		t.Fatalf("no question on screen:\n%s", h.transcriptView())
	}
}

// A long warning wraps under the composer, stays until esc, and can be
// read whole again in the notices pane: beside the transcript when the
// screen is wide, in its place when it is small.
func TestNoticesWrapStayAndReopen(t *testing.T) {
	long := "the clipboard tool is missing; install wl-clipboard (apt install wl-clipboard, dnf install wl-clipboard or pacman -S wl-clipboard) and try again, or attach the screenshot with /attach PATH instead of pasting it"
	for _, sz := range [][2]int{{100, 30}, {40, 12}} {
		h := newHarness(t, sz[0], sz[1])
		h.send(noticeMsgFor(h, long))
		h.clock.advance(time.Minute)
		h.send(struct{}{})
		scr := h.screen()
		if !strings.Contains(scr, "wl-clipboard") || !strings.Contains(scr, "esc dismisses") && sz[0] >= 100 {
			t.Fatalf("%v: notice not shown whole enough:\n%s", sz, scr)
		}
		checkFrame(t, h.m, sz[0], sz[1])
		h.key("esc")
		if strings.Contains(h.screen(), "wl-clipboard") {
			t.Fatalf("%v: esc did not dismiss:\n%s", sz, h.screen())
		}
		h.key("f4")
		scr = h.screen()
		if !strings.Contains(scr, "Notices") || !strings.Contains(scr, "pacman") {
			t.Fatalf("%v: pane does not show the notice whole:\n%s", sz, scr)
		}
		checkFrame(t, h.m, sz[0], sz[1])
		if sz[0] >= 100 {
			if h.lay().SideFull || h.lay().Transcript.W == 0 {
				t.Fatalf("100x30: pane not beside the transcript: %+v", h.lay())
			}
		} else if !h.lay().SideFull {
			t.Fatalf("40x12: pane beside a transcript that has no room: %+v", h.lay())
		}
		h.key("f4")
		if h.lay().Side.W != 0 || strings.Contains(h.screen(), "Notices ·") {
			t.Fatalf("%v: f4 did not close the pane:\n%s", sz, h.screen())
		}
	}
}

// noticeMsgFor is a message whose handling shows a warning: a failed
// client build for a send that waited for it.
func noticeMsgFor(h *harness, text string) tea.Msg {
	h.eng.Hold(chat.WaitClient)
	return clientReadyMsg{pool: h.eng.Clients(), model: h.model(), err: errText(text)}
}

type errText string

func (e errText) Error() string { return string(e) }

// An earlier image bound for a model without vision: the send says so,
// keeps the composer, and the next send goes without the images.
func TestEarlierImageOfferToSendWithout(t *testing.T) {
	h := newHarness(t, 100, 30)
	p := pngFile(t, t.TempDir(), 16, 16)
	h.send(tea.PasteMsg{Content: p})
	h.wait("attached", func() bool { return len(h.attached()) == 1 })
	replyWith(t, h, "an image")
	h.useModel("llama3")
	h.typeText("and in words?")
	h.key("enter")
	h.wait("the refusal", func() bool { return h.eng.Waiting() == chat.WaitNone })
	if len(h.srv.Requests()) != 1 || h.draft() != "and in words?" {
		t.Fatalf("sent anyway (%d requests) or lost the text %q", len(h.srv.Requests()), h.draft())
	}
	if !strings.Contains(h.screen(), "leave the images out") {
		t.Fatalf("no offer:\n%s", h.screen())
	}
	h.srv.Enqueue(apitest.Reply{Text: "words"})
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
	req := h.srv.Requests()[1].Chat
	for _, msg := range req.Messages {
		for _, part := range msg.Content.Parts {
			if part.ImageURL != nil {
				t.Fatalf("an image went to llama3: %+v", req.Messages)
			}
		}
	}
	if req.Messages[0].Content.PlainText() == "" {
		t.Fatalf("the first turn's text was dropped with its image: %+v", req.Messages)
	}
}

// Enter typed before parley took the terminal arrives as ctrl+j (the line
// discipline turned CR into LF); it sends, it does not add a newline, also
// when a slow start brings it a second late. Once the terminal has answered
// a query (the typed keys came before the answers), or after
// typeAheadLimit, a ctrl+j is a newline again.
func TestTypeAheadEnterSends(t *testing.T) {
	srv := apitest.New(t)
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	newChat := func(clock *time.Time) (*Model, *chat.Engine) {
		*clock = start
		return newWithEngine(t.Context(), Options{Model: "gpt-4o", Theme: "dark", Width: 80, Height: 24, Now: func() time.Time { return *clock },
			NewClient: func(string) (*api.Client, error) {
				return api.NewClient(api.ClientConfig{BaseURL: srv.URL(), APIKey: apitest.DefaultAPIKey})
			}})
	}
	var clock time.Time
	m, eng := newChat(&clock)
	for _, r := range "hi" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	// A second after start: a slow start on a loaded machine.
	clock = clock.Add(time.Second)
	m.Update(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	if eng.Waiting() == chat.WaitNone || strings.Contains(draftOf(m), "\n") {
		t.Fatalf("typed-ahead enter a second after start: pending %v, composer %q", eng.Waiting() != chat.WaitNone, draftOf(m))
	}

	// The terminal answered: the next ctrl+j is typed by the user.
	m, eng = newChat(&clock)
	m.Update(tea.KeyPressMsg{Code: 'h', Text: "h"})
	m.Update(tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
	m.Update(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	if eng.Waiting() != chat.WaitNone || draftOf(m) != "h\n" {
		t.Fatalf("ctrl+j after the terminal's answer: pending %v, composer %q", eng.Waiting() != chat.WaitNone, draftOf(m))
	}

	// No answer, but past the limit.
	m, eng = newChat(&clock)
	m.Update(tea.KeyPressMsg{Code: 'h', Text: "h"})
	clock = clock.Add(typeAheadLimit)
	m.Update(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	if eng.Waiting() != chat.WaitNone || draftOf(m) != "h\n" {
		t.Fatalf("ctrl+j past typeAheadLimit: pending %v, composer %q", eng.Waiting() != chat.WaitNone, draftOf(m))
	}
}

// ctrl+y copies the last reply that has text, also right after a turn
// that failed without any.
func TestCopyAfterFailedTurn(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, "the good answer")
	h.srv.Enqueue(apitest.Reply{Status: 400, Body: `{"error":{"message":"bad request"}}`})
	h.typeText("again")
	h.key("enter")
	h.wait("failure", func() bool { return !h.streaming() })
	if r, _ := h.eng.Conv().LastReply(); r.State != conversation.StateFailed {
		t.Fatalf("last reply %+v", r)
	}
	h.key("ctrl+y")
	h.wait("copied", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.clipboard) == 1
	})
	if h.clipboard[0] != "the good answer" {
		t.Fatalf("copied %q", h.clipboard[0])
	}
}

// Typing "/" in an empty composer opens the command list above it; typing
// filters it; enter runs the highlighted command; an unknown command is
// named with the nearest one and nothing typed is lost; "//" sends text.
func TestSlashCommands(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.typeText("/")
	if above := h.region(h.lay().Above); !strings.Contains(above, "/model") {
		t.Fatalf("no command list above the composer after / (above %+v):\n%s", h.lay().Above, h.screen())
	}
	scr := h.screen()
	for _, want := range []string{"/model", "/theme", "/new", "/system", "ctrl+o"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the list lacks %q:\n%s", want, scr)
		}
	}
	checkFrame(t, h.m, 100, 30)
	h.typeText("the")
	if scr := h.screen(); !strings.Contains(scr, "/theme") || strings.Contains(scr, "/model") {
		t.Fatalf("not filtered to /theme:\n%s", scr)
	}
	h.key("enter")
	if h.m.layerName() != "themes" {
		t.Fatalf("/theme did not open the theme picker: %q", h.m.layerName())
	}
	h.key("esc")

	// A command typed whole and sent.
	h.typeText("/model llama3")
	h.key("enter")
	if h.model() != "llama3" || h.draft() != "" {
		t.Fatalf("/model llama3: model %q, composer %q", h.model(), h.draft())
	}

	// Unknown: the nearest command, and the text stays.
	h.typeText("/modle x")
	h.key("enter")
	if !strings.Contains(h.screen(), "did you mean /model") || h.draft() != "/modle x" {
		t.Fatalf("unknown command: composer %q\n%s", h.draft(), h.screen())
	}
	h.key("esc")
	h.clearDraft()

	// /system sets this conversation's prompt; the request carries it.
	h.useModel("gpt-4o")
	h.typeText("/system answer in French")
	h.key("enter")
	if h.eng.Conv().SystemPrompt() != "answer in French" {
		t.Fatalf("system prompt %q", h.eng.Conv().SystemPrompt())
	}
	// "//" sends the rest as text.
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.typeText("//etc/hosts is a path")
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
	msgs := h.srv.RequestsTo("/chat/completions")[0].Chat.Messages
	if msgs[0].Role != "system" || msgs[0].Content.PlainText() != "answer in French" || msgs[len(msgs)-1].Content.PlainText() != "/etc/hosts is a path" {
		t.Fatalf("request %+v", msgs)
	}

	// /new starts over at once (typing it is deliberate).
	h.typeText("/new")
	h.key("enter")
	if h.eng.Conv().Len() != 0 {
		t.Fatalf("/new kept %d messages", h.eng.Conv().Len())
	}
}

// While the client waits to retry, the status says why and when.
func TestRetryShowsInStatus(t *testing.T) {
	h := newHarness(t, 120, 24)
	h.srv.Enqueue(apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "1"}, Body: `{"error":{"message":"slow down","type":"rate_limit"}}`})
	h.srv.Enqueue(apitest.Reply{Text: "finally"})
	h.typeText("q")
	h.key("enter")
	h.wait("the retry notice", func() bool { return strings.Contains(h.screen(), "429 rate limited · retry 2/") })
	h.wait("the reply", func() bool { return !h.streaming() })
	if r, _ := h.eng.Conv().LastReply(); r.Text != "finally" {
		t.Fatalf("reply %+v", r)
	}
	if strings.Contains(h.screen(), "retry 2/") {
		t.Fatalf("the retry notice stayed:\n%s", h.screen())
	}
}

// /attach takes paths (and links); the chips show what goes and how it
// was scaled; attach_max_count is enforced and said; alt+x removes.
func TestAttachCommandChipsAndLimits(t *testing.T) {
	cfg := &config.Config{AttachMaxCount: 2, AttachMaxSide: 64}
	h := newHarness(t, 120, 30, func(o *Options) { o.Config = cfg })
	dir := t.TempDir()
	big := pngFile(t, dir, 400, 300)
	h.typeText("/attach " + big + " https://example.com/cat.png")
	h.key("enter")
	h.wait("attached", func() bool { return len(h.attached()) == 2 })
	scr := h.screen()
	if !strings.Contains(scr, "64×48 PNG") || !strings.Contains(scr, "sent for 400×300 PNG") || !strings.Contains(scr, "🔗 https://example.com/cat.png") {
		t.Fatalf("chips:\n%s", scr)
	}
	checkFrame(t, h.m, 120, 30)
	h.typeText("/attach " + pngFile(t, t.TempDir(), 8, 8))
	h.key("enter")
	h.wait("the refusal", func() bool { return strings.Contains(h.screen(), "at most 2 attachments") })
	if len(h.attached()) != 2 {
		t.Fatalf("%d attachments", len(h.attached()))
	}
	h.key("alt+x")
	if len(h.attached()) != 1 || h.attached()[0].Height != 48 {
		t.Fatalf("alt+x left %+v", h.attached())
	}
	// What is sent carries the scaled bytes with their real media type.
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.typeText("look")
	h.key("enter")
	h.wait("reply", func() bool { return !h.streaming() })
	parts := h.srv.Requests()[0].Chat.Messages[0].Content.Parts
	if len(parts) != 2 || !strings.HasPrefix(parts[1].ImageURL.URL, "data:image/png;base64,") {
		t.Fatalf("parts %+v", parts)
	}
}

// settleTranscript runs the transcript's frame loop as the root does, the
// background renders included, until nothing is left to render.
func settleTranscript(tr *transcript.Transcript) {
	for i := 0; tr.NeedsTick() && i < 100000; i++ {
		if cmd := tr.Tick(); cmd != nil {
			tr.HandleMsg(cmd())
		}
	}
}
