package ui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/api/apitest"
	"parley/chat"
	"parley/ui/imagepane"
	"parley/ui/overlay"
	"parley/ui/preview"
	"parley/ui/sidepane"
	"parley/ui/uictx"
)

// harness drives a root model the way Bubble Tea would, without a
// terminal: Update is called with each message; the commands it returns run
// on goroutines and their messages are fed back, one at a time, by wait.
type harness struct {
	t *testing.T
	m *Model
	// eng is the chat engine the harness gave the screen: what the chat
	// holds is read from it, never from the model's fields.
	eng *chat.Engine
	// opts are the options the screen was made with.
	opts Options
	srv  *apitest.Server
	msgs chan tea.Msg
	ctx  context.Context

	mu        sync.Mutex
	clipboard []string // system clipboard writes
	osc52     []string // tea.SetClipboard payloads
	raw       []string // tea.Raw writes (kitty pictures)
	quit      bool
	clock     *fakeClock

	// seen counts the messages commands brought to Update, by type: a test
	// waits for the one that must come (a run's end) instead of a while.
	seen map[reflect.Type]int
}

// fakeClock is a settable clock for status bar times and double presses.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type harnessOpt func(*Options)

func newHarness(t *testing.T, w, h int, hopts ...harnessOpt) *harness {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv := apitest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	hs := &harness{t: t, srv: srv, msgs: make(chan tea.Msg, 1024), ctx: ctx,
		clock: &fakeClock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)},
		seen:  map[reflect.Type]int{}}
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	opts := Options{
		Model:   "gpt-4o",
		Theme:   "dark",
		Version: "test",
		NewClient: func(model string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: srv.URL(), APIKey: apitest.DefaultAPIKey, UserAgent: "parley/test"})
		},
		Getenv:    func(k string) string { return env[k] },
		Clipboard: hs.copyToClipboard,
		Now:       hs.clock.now,
		Width:     w,
		Height:    h,
	}
	for _, o := range hopts {
		o(&opts)
	}
	hs.eng = NewEngine(ctx, opts)
	opts.Engine = hs.eng
	hs.opts = opts
	hs.m = New(ctx, opts)
	// Past the window in which an early ctrl+j counts as a typed-ahead
	// Enter (TestTypeAheadEnterSends covers that window).
	hs.clock.advance(typeAheadLimit + time.Second)
	// Clients are built in commands (never in Update): start as the
	// program would, and wait until the first model's client has reached
	// the model, so a test's first send goes out at once.
	if _, setup := topIs[*overlay.Setup](&hs.m.layers); opts.NewClient != nil && opts.Model != "" && !setup {
		hs.run(hs.m.Init())
		hs.wait("the first client", func() bool { return arrived[clientReadyMsg](hs) > 0 })
	}
	return hs
}

// copyToClipboard is the system clipboard the harness gives the screen:
// it keeps what is written.
func (h *harness) copyToClipboard(s string) error {
	h.mu.Lock()
	h.clipboard = append(h.clipboard, s)
	h.mu.Unlock()
	return nil
}

// send calls Update with msg and starts the commands it returns.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if pureCmd(cmd) {
		// Nothing to wait for: what it carries (a quit, a picture's
		// transmit) is recorded before Update's caller looks.
		h.deliver(cmd())
		return
	}
	go func() {
		msg := cmd()
		if msg == nil {
			return
		}
		select {
		case h.msgs <- msg:
		case <-h.ctx.Done():
		}
	}()
}

// pureCmd reports whether cmd is one of Bubble Tea's own commands that do
// no work (a batch, quit, a raw write, a clipboard write): a closure's
// code pointer is the same for every closure of one function literal.
func pureCmd(cmd tea.Cmd) bool {
	pc := reflect.ValueOf(cmd).Pointer()
	for _, c := range []tea.Cmd{tea.Batch(tea.Quit, tea.Quit), tea.Quit, tea.Raw(""), tea.SetClipboard("")} {
		if reflect.ValueOf(c).Pointer() == pc {
			return true
		}
	}
	return false
}

// arrived is how many messages of type T commands have brought so far.
func arrived[T tea.Msg](h *harness) int {
	return h.seen[reflect.TypeFor[T]()]
}

// deliver handles one message from a command: batches fan out, internal
// Bubble Tea messages are recorded, the rest go to Update.
func (h *harness) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
		return
	case tea.RawMsg:
		h.mu.Lock()
		h.raw = append(h.raw, fmt.Sprint(msg.Msg))
		h.mu.Unlock()
		return
	case tea.QuitMsg:
		h.mu.Lock()
		h.quit = true
		h.mu.Unlock()
		return
	}
	h.seen[reflect.TypeOf(msg)]++
	switch reflect.TypeOf(msg).Name() {
	case "setClipboardMsg":
		h.mu.Lock()
		h.osc52 = append(h.osc52, reflect.ValueOf(msg).String())
		h.mu.Unlock()
		return
	case "sequenceMsg", "execMsg":
		h.t.Fatalf("unexpected %T in a test", msg)
	}
	h.send(msg)
}

// wait feeds messages to the model until cond holds. cond is also checked
// every few milliseconds without a message: what it looks at may change
// in the background (a decode holding the budget) while no message comes.
func (h *harness) wait(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	poll := time.NewTicker(2 * time.Millisecond)
	defer poll.Stop()
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.deliver(msg)
		case <-poll.C:
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.screen())
		}
	}
}

// drain delivers every message already queued, without waiting for more:
// after it, a message a test delivered by hand (a late tick) has had all
// the company it will get from what is queued.
func (h *harness) drain() {
	h.t.Helper()
	for {
		select {
		case msg := <-h.msgs:
			h.deliver(msg)
		default:
			return
		}
	}
}

// quiet feeds messages until the screen has nothing left to do: no
// stream, no render job or lazy rendering pending, no frame tick due.
// Under load a background render can take a while; a screen taken before
// it lands would differ from one taken after.
func (h *harness) quiet() {
	h.t.Helper()
	h.wait("a quiet screen", func() bool {
		return !h.streaming() && !h.m.tr.NeedsTick() && !h.m.screen.ticking && h.m.tr.Idle()
	})
}

// screen is the current view without colours.
func (h *harness) screen() string {
	return ansi.Strip(h.m.View().Content)
}

func (h *harness) key(s string) {
	h.t.Helper()
	h.send(keyMsg(s))
}

func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		if r == '\n' {
			h.key("ctrl+j")
			continue
		}
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// keyMsg builds the key press Bubble Tea reports for a keystroke string
// like "ctrl+c", "alt+enter", "pgup", "?".
func keyMsg(s string) tea.KeyPressMsg {
	var mod tea.KeyMod
	parts := strings.Split(s, "+")
	if strings.HasSuffix(s, "++") {
		parts = append(strings.Split(strings.TrimSuffix(s, "++"), "+"), "+")
	}
	for _, p := range parts[:len(parts)-1] {
		switch p {
		case "ctrl":
			mod |= tea.ModCtrl
		case "alt":
			mod |= tea.ModAlt
		case "shift":
			mod |= tea.ModShift
		}
	}
	base := parts[len(parts)-1]
	named := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "up": tea.KeyUp, "down": tea.KeyDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace, "tab": tea.KeyTab,
		"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6, "space": tea.KeySpace, "delete": tea.KeyDelete,
	}
	if c, ok := named[base]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(base)[0]
	if mod == 0 {
		return tea.KeyPressMsg{Code: r, Text: base}
	}
	return tea.KeyPressMsg{Code: r, Mod: mod}
}

func (h *harness) streaming() bool {
	return h.eng.Reply() != nil || h.eng.Waiting() != chat.WaitNone
}

// errBadKey is a client construction error carrying a control sequence, as
// a hostile environment might.
var errBadKey = errorString("the API key is missing \x1b]0;x\x07: set OPENAI_API_KEY")

type errorString string

func (e errorString) Error() string { return string(e) }

// imagePaneFocused is the open image pane and whether it has the keys.
func (m *Model) imagePaneFocused() (*imagepane.Pane, bool) {
	p, ok := m.pane.(*imagepane.Pane)
	return p, ok && m.focus.on == focusPane && m.layers.top() == nil
}

// panePicture reports whether the side pane shows a picture: the half
// blocks of its preview, as many as a preview of a few cells has.
func (h *harness) panePicture() bool {
	return strings.Count(h.region(h.lay().Side), "▀") >= 20
}

// layerName is the name of the top layer, or "" when none is open.
func (m *Model) layerName() string {
	if l := m.layers.top(); l != nil {
		return l.kind
	}
	return ""
}

// What a test reads of the root's state where the screen cannot say it
// exactly (the composer's text wraps, a model name is cut to fit, the
// cursor is a colour): one accessor each, so that tests do not reach into
// the root's parts. The functions of a *Model serve the tests that drive
// a model without a harness too (the benchmarks).

// draftOf is the composer's text.
func draftOf(m *Model) string { return m.comp.value() }

// attachedTo is what the message being written carries.
func attachedTo(m *Model) []api.Attachment { return m.comp.attachments }

// cursorOf is the part that has the keys and the id of the message the
// message cursor is on (with focusMessages).
func cursorOf(m *Model) (focusPart, int) { return m.focus.on, m.focus.msg }

// layoutOf is where each part of the screen is.
func layoutOf(m *Model) layout { return m.screen.lay }

// renderAll renders what the transcript has left to render, the
// background renders included, as the frame ticks would.
func renderAll(m *Model) { settleTranscript(m.tr) }

// draft and attached are the composer's text and what the message being
// written carries.
func (h *harness) draft() string              { return draftOf(h.m) }
func (h *harness) attached() []api.Attachment { return attachedTo(h.m) }

// editing reports that the composer holds an edit of a sent message.
func (h *harness) editing() bool { return h.m.comp.editing }

// model is the model the next turn uses.
func (h *harness) model() string { return h.eng.Model() }

// theme is the name of the theme on screen; themeSetting is what was
// chosen (auto, or a name).
func (h *harness) theme() string        { return h.m.ctx.Theme.Name }
func (h *harness) themeSetting() string { return h.m.term.themeName }

// focusOn is the part that has the keys; cursorMsg the id of the message
// the message cursor is on (with focusMessages).
func (h *harness) focusOn() focusPart {
	on, _ := cursorOf(h.m)
	return on
}

func (h *harness) cursorMsg() int {
	_, msg := cursorOf(h.m)
	return msg
}

// atBottom reports that the transcript follows its end.
func (h *harness) atBottom() bool { return h.m.tr.List().AtBottom() }

// opening is the id of the session being opened ("" when none is).
func (h *harness) opening() string { return h.m.hist.loading }

// attaching reports attachments still being read.
func (h *harness) attaching() bool { return h.m.work.attaching > 0 }

// lay is where each part of the screen is.
func (h *harness) lay() layout { return layoutOf(h.m) }

// transcriptView is the transcript's part of the frame.
func (h *harness) transcriptView() string { return h.m.tr.List().View() }

// region is the text of the screen's rectangle r, without colours: what
// a part of the screen shows (the side pane), read from the frame.
func (h *harness) region(r rect) string {
	lines := strings.Split(h.m.View().Content, "\n")
	var out []string
	for y := r.Y; y < r.Y+r.H && y < len(lines); y++ {
		out = append(out, ansi.Strip(ansi.Cut(lines[y], r.X, r.X+r.W)))
	}
	return strings.Join(out, "\n")
}

// pictureMode is how pictures are drawn.
func (h *harness) pictureMode() preview.Mode { return h.m.pics.mode }

// textarea is the composer's text box (its cursor, its lines, its focus).
func (h *harness) textarea() *textarea.Model { return &h.m.comp.ta }

// notice is the notice on screen, in full and with its kind.
func (h *harness) notice() (string, toastKind) {
	n := h.m.notes.cur
	return n.text, n.kind
}

// said is the log of the run's notices, oldest first, whether or not
// they are still on screen (a notice said again in a row is logged once,
// with the gen of its last saying).
func (h *harness) said() []sidepane.Notice { return h.m.notes.log }

// showNotice shows a notice as a part of the chat would (its fade timer
// aside): for the tests of how notices are drawn.
func (h *harness) showNotice(text string, kind toastKind) { h.m.notes.show(text, kind) }

// clearDraft deletes what the composer holds, key by key, as a user would.
func (h *harness) clearDraft() {
	h.t.Helper()
	for i := 0; h.draft() != ""; i++ {
		if i > 10000 {
			h.t.Fatalf("backspace does not empty the composer: %q", h.draft())
		}
		h.key("backspace")
	}
}

// pushLayer opens c as the top layer, as the key or command that opens
// it would: for the tests of components the chat does not have.
func (h *harness) pushLayer(c uictx.Component, kind string) {
	h.m.layers.push(layer{Component: c, kind: kind})
}

// useModel makes name the model of the next turn, as a layer's effect
// would, without the check /model starts.
func (h *harness) useModel(name string) { h.eng.SetModel(name) }
