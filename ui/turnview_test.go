package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
	"parley/conversation"
	"parley/themes"
)

// pumped waits until text of the stream in flight waits in its pump
// (arrived from the gateway, not yet taken by a frame) and returns it:
// want, the text the gateway sends first.
// Frame ticks that come in the meantime are held back (not delivered), so
// the test decides when the next frame happens.
func pumped(t *testing.T, h *harness, want string) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if h.eng.Reply().Pump().Buffered() >= len(want) {
			return want
		}
		select {
		case msg := <-h.msgs:
			if _, ok := msg.(frameMsg); !ok {
				h.deliver(msg)
			}
		case <-time.After(time.Millisecond):
		case <-deadline:
			t.Fatalf("no text arrived; screen:\n%s", h.screen())
		}
	}
}

// TestDeltaVisibleAtNextFrame: text that reached the pump is on screen at
// the next frame tick, which takes it from the pump, appends it and
// re-renders the tail: text is visible at most readGap + the frame
// interval after it arrived (a quarter of a second on the largest
// screens), and nothing reaches the model between frames.
func TestDeltaVisibleAtNextFrame(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {300, 100}} {
		if lag := readGap + streamFrame(size[0], size[1]); lag > 250*time.Millisecond {
			t.Fatalf("at %dx%d read gap %v + frame %v: a delta could take longer than 250 ms to show", size[0], size[1], readGap, streamFrame(size[0], size[1]))
		}
	}
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "alpha bravo charlie delta", DeltaRunes: 6, StallAfterDeltas: 1, Stall: 5 * time.Second})
	h.typeText("go")
	h.key("enter")
	text := pumped(t, h, "alpha ")
	if got := lastReplyMsg(h).Text; got != "" {
		t.Fatalf("the conversation has %q before a frame took the text", got)
	}
	// The frame tick shows it and asks for the next frame.
	_, cmd := h.m.Update(frameMsg{id: h.eng.Reply().ID})
	if got := lastReplyMsg(h).Text; got != text {
		t.Fatalf("conversation has %q after the frame; the pump held %q", got, text)
	}
	if !strings.Contains(h.screen(), strings.TrimSpace(text)) {
		t.Fatalf("%q not on screen after the frame tick:\n%s", text, h.screen())
	}
	if cmd == nil {
		t.Fatal("the frame tick stopped while the reply streams")
	}
	h.key("esc")
}

// TestNewTextBelowWhileStreaming: scrolled up while a reply streams, the
// view stays on what the user reads and says that new text arrived below;
// the end key goes back to the bottom and following resumes.
func TestNewTextBelowWhileStreaming(t *testing.T) {
	h := newHarness(t, 80, 20)
	var long strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&long, "Paragraph %d of the first answer.\n\n", i)
	}
	replyWith(t, h, long.String())
	var streamed strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&streamed, "Streamed line %d.\n\n", i)
	}
	// The stream pauses after its first lines, while the user scrolls up;
	// the rest then arrives below the window.
	h.srv.Enqueue(apitest.Reply{Text: streamed.String(), DeltaRunes: 20, Interval: 5 * time.Millisecond,
		StallAfterDeltas: 3, Stall: 500 * time.Millisecond})
	h.typeText("more")
	h.key("enter")
	h.wait("streamed text", func() bool { return strings.Contains(h.screen(), "Streamed line 2.") })
	h.key("pgup")
	h.key("pgup")
	top := h.screen()
	if h.atBottom() || !strings.Contains(top, "Paragraph") {
		t.Fatalf("pgup did not scroll up:\n%s", top)
	}
	h.wait("badge", func() bool { return strings.Contains(h.screen(), "new text below") })
	// What the user reads has not moved.
	firstLine := func(s string) string { return strings.SplitN(s, "\n", 2)[0] }
	if got := firstLine(h.screen()); got != firstLine(top) {
		t.Fatalf("the window moved while scrolled up: %q, was %q", got, firstLine(top))
	}
	h.key("end")
	if !h.atBottom() || strings.Contains(h.screen(), "new text below") {
		t.Fatalf("end did not return to the bottom:\n%s", h.screen())
	}
	h.wait("done", func() bool { return !h.streaming() })
	h.quiet()
	if !h.atBottom() || !strings.Contains(h.screen(), "Streamed line 40.") {
		t.Fatalf("following did not resume:\n%s", h.screen())
	}
}

// TestTurnStatesOnScreen: each state of a turn shows in the transcript and
// the status bar: streaming, done, interrupted, failed with the gateway's
// message and the retry key.
func TestTurnStatesOnScreen(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.srv.Enqueue(apitest.Reply{Text: "partial words then a stall", DeltaRunes: 8, StallAfterDeltas: 1, Stall: 5 * time.Second})
	h.typeText("one")
	h.key("enter")
	h.wait("streaming text", func() bool { return strings.Contains(h.screen(), "partial") })
	h.clock.advance(2 * time.Second)
	h.send(frameMsg{id: h.eng.Reply().ID})
	if scr := h.screen(); !strings.Contains(scr, "gpt-4o · writing…") || !strings.Contains(scr, "2.0s · ~1 tok/s") {
		t.Errorf("streaming state not shown:\n%s", scr)
	}
	h.key("esc")
	if scr := h.screen(); !strings.Contains(scr, "■ interrupted · ctrl+r to regenerate") || !strings.Contains(scr, "■ stopped") || strings.Contains(scr, "writing…") {
		t.Errorf("interrupted state not shown:\n%s", scr)
	}
	if r := lastReplyMsg(h); r.State != conversation.StateInterrupted || r.Text != "partial " {
		t.Errorf("reply %v %q", r.State, r.Text)
	}

	h.srv.Enqueue(apitest.Reply{Text: "p", DeltaRunes: 1, ErrorAfterDeltas: 1, ErrorMessage: "the upstream model is overloaded"})
	h.key("ctrl+r")
	h.wait("failure", func() bool { return !h.streaming() })
	h.quiet()
	scr := h.screen()
	for _, want := range []string{"✗ ", "overloaded", "ctrl+r to retry", "✗ failed", "You", "one"} {
		if !strings.Contains(scr, want) {
			t.Errorf("failed state lacks %q:\n%s", want, scr)
		}
	}

	h.srv.Enqueue(apitest.Reply{Text: "a complete answer"})
	h.key("ctrl+r")
	h.wait("done", func() bool { return !h.streaming() })
	h.quiet()
	scr = h.screen()
	if !strings.Contains(scr, "a complete answer") || strings.Contains(scr, "failed") || strings.Contains(scr, "interrupted") || strings.Contains(scr, "writing…") {
		t.Errorf("done state:\n%s", scr)
	}
	if !strings.Contains(scr, "in ·") || !strings.Contains(scr, "out tokens") {
		t.Errorf("usage of the finished reply not in the status bar:\n%s", scr)
	}
}

// TestImageModelsLeftOutOfPicker: the chat's model picker does not offer
// models that only make images (the gateway refuses chat requests to
// them), whatever the gateway lists; the current model always stays.
func TestImageModelsLeftOutOfPicker(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.key("ctrl+o")
	h.wait("gateway list", func() bool { return strings.Contains(h.screen(), "llava") })
	scr := h.screen()
	for _, img := range []string{"dall-e-2", "dall-e-3", "gpt-image-1"} {
		if strings.Contains(scr, img) {
			t.Errorf("image model %s offered for chat:\n%s", img, scr)
		}
	}
	for _, chat := range []string{"gpt-4o", "gpt-4o-mini", "llama3", "llava"} {
		if !strings.Contains(scr, chat) {
			t.Errorf("chat model %s missing:\n%s", chat, scr)
		}
	}
	h.key("esc")
	// A current image model stays listed, so the picker shows what is in use.
	h2 := newHarness(t, 80, 30, func(o *Options) { o.Model = "dall-e-3" })
	h2.key("ctrl+o")
	h2.wait("gateway list", func() bool { return strings.Contains(h2.screen(), "llava") })
	if scr := h2.screen(); !strings.Contains(scr, "● dall-e-3") || strings.Contains(scr, "dall-e-2") {
		t.Errorf("current image model:\n%s", scr)
	}
}

// TestThemeSwitchRecoloursTranscript: choosing a theme renders the
// transcript again in it: headings and code take the new theme's colours.
func TestThemeSwitchRecoloursTranscript(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, "# Heading\n\n```go\nfunc main() {}\n```\n")
	set := themes.NewSet()
	for _, name := range []string{"nord", "solarized-light", "dark"} {
		h.key("f3")
		h.typeText(name)
		h.key("enter")
		h.quiet()
		th, _ := set.Get(name)
		if h.theme() != name {
			t.Fatalf("theme %q, want %q", h.theme(), name)
		}
		v := h.m.View().Content
		for _, want := range []struct {
			what string
			c    themes.Color
			text string
		}{{"heading", th.Heading, "Heading"}, {"keyword", th.Syntax.Keyword, "func"}} {
			if c := sgrColour(want.c); !strings.Contains(v, c+"m") && !strings.Contains(v, c+";") {
				t.Errorf("%s: the %s colour %s is not on screen", name, want.what, want.c)
			}
		}
	}
}

// sgrColour is the 24-bit SGR foreground parameters of a theme colour
// (attributes may follow in the same sequence).
func sgrColour(c themes.Color) string {
	var r, g, b int
	if _, err := fmt.Sscanf(string(c), "#%02x%02x%02x", &r, &g, &b); err != nil {
		panic("not a hex colour: " + string(c))
	}
	return fmt.Sprintf("\x1b[38;2;%d;%d;%d", r, g, b)
}

// TestHostileCharacterReferences: glamour decodes HTML character
// references after parsing; a reply spelling escape sequences that way
// shows them as inert placeholders, and its colour or attribute codes do
// not reach the screen either.
func TestHostileCharacterReferences(t *testing.T) {
	h := newHarness(t, 80, 24)
	replyWith(t, h, "A &#27;[2J B &#x1b;]0;title&#7; C &#27;[8mhidden&#27;[0m D &#155;31m E `&#27;[5m`\n")
	v := h.m.View().Content
	if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x1b]") || strings.ContainsRune(v, 0x07) || strings.Contains(v, "\x1b[8m") || strings.Contains(v, "\x1b[5m") {
		t.Fatalf("a sequence from a character reference reached the screen: %q", v)
	}
	scr := h.screen()
	for _, want := range []string{"A ␛[2J B", "␛]0;title␇", "␛[8mhidden␛[0m", "›31m", "␛[5m"} {
		if !strings.Contains(scr, want) {
			t.Errorf("placeholder %q not shown:\n%s", want, scr)
		}
	}
	// The copy is the Markdown as written, made inert the same way.
	h.key("ctrl+y")
	h.wait("copied", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.osc52) == 1 && len(h.clipboard) == 1
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	if strings.ContainsRune(h.clipboard[0], 0x1b) {
		t.Errorf("clipboard %q", h.clipboard[0])
	}
}
