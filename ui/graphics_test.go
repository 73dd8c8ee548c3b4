package ui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"parley/api/apitest"
	"parley/ui/preview"
	"parley/ui/termprobe"
)

// sendShot sends a message with a 64×48 screenshot attached and waits for
// the reply.
func sendShot(t *testing.T, h *harness) {
	t.Helper()
	shot := pngFile(t, t.TempDir(), 64, 48)
	h.srv.Enqueue(apitest.Reply{Text: "a test pattern"})
	h.typeText("/attach " + shot)
	h.key("enter")
	h.wait("the chip", func() bool { return len(h.attached()) == 1 })
	h.typeText("what is this?")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() && strings.Contains(h.screen(), "a test pattern") })
}

func rawWrites(h *harness) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.raw, "")
}

func kittyEnv(t *testing.T) func(o *Options) {
	return func(o *Options) {
		env := map[string]string{"TERM": "xterm-kitty", "XDG_CONFIG_HOME": t.TempDir()}
		o.Getenv = func(k string) string { return env[k] }
	}
}

// The terminal is asked what it is with the first frame, not before it:
// the queries are a raw write of Init, and the first frame is composed
// without waiting for the answers.
func TestTerminalIsAskedWithTheFirstFrame(t *testing.T) {
	h := newHarness(t, 100, 30, kittyEnv(t))
	h.wait("the queries", func() bool { return strings.Contains(rawWrites(h), termprobe.Queries) })
	if !strings.Contains(h.screen(), "Message") {
		t.Fatal("no first frame before the answers")
	}
	if h.pictureMode() != preview.Blocks {
		t.Errorf("kitty of an unknown version draws %v before it answered", h.pictureMode())
	}
	h.send(tea.TerminalVersionMsg{Name: "kitty(0.26.5)"})
	h.send(uv.PrimaryDeviceAttributesEvent{62, 52, 4})
	if h.pictureMode() != preview.KittyDirect {
		t.Errorf("kitty 0.26.5 draws %v", h.pictureMode())
	}
	if got := h.m.pics.choice.Terminal.String(); got != "kitty 0.26.5" {
		t.Errorf("terminal %q", got)
	}
}

var placeRE = regexp.MustCompile(`\x1b_Ga=p,i=\d+,p=1,c=\d+,r=\d+(,y=\d+,h=\d+)?,C=1,q=2\x1b\\`)

// In kitty 0.26 (Debian 12's), placeholders show as boxes: a sent image is
// transmitted once without a placement and placed directly where the
// transcript has it; the frame holds blank cells and no placeholder, and
// an unchanged screen writes nothing more.
func TestSentImageInOldKittyIsPlacedDirectly(t *testing.T) {
	h := newHarness(t, 100, 40, kittyEnv(t))
	h.send(tea.TerminalVersionMsg{Name: "kitty(0.26.5)"})
	h.send(uv.PrimaryDeviceAttributesEvent{62, 52, 4})
	sendShot(t, h)
	h.wait("the placement", func() bool { return placeRE.MatchString(rawWrites(h)) })
	h.quiet()
	h.drain()
	raw := rawWrites(h)
	if n := strings.Count(raw, "a=t,f=100,"); n != 1 {
		t.Errorf("transmitted %d times", n)
	}
	if strings.Contains(raw, "U=1") || strings.Contains(h.m.View().Content, "\U0010EEEE") {
		t.Error("placeholders for a kitty that cannot draw them")
	}
	if !strings.Contains(h.m.View().Content, "\u00a0") {
		t.Error("no blank picture cells in the frame")
	}
	before := len(raw)
	h.send(tea.KeyPressMsg{Code: 'x', Text: "x"}) // a frame that does not move the picture
	h.drain()
	if after := rawWrites(h); len(after) != before {
		t.Errorf("an unchanged picture wrote %q", after[before:])
	}
}

var sixelRE = regexp.MustCompile(`\x1b7\x1b\[\d+;\d+H\x1bP0;1;0q"1;1;(\d+);(\d+)`)

// In xterm started as a VT340 (sixel in its device attributes), a sent
// image is drawn as sixel at the cell size the terminal gave, after the
// frame, once.
func TestSentImageInSixelXterm(t *testing.T) {
	h := newHarness(t, 100, 40, func(o *Options) {
		env := map[string]string{"TERM": "xterm", "XTERM_VERSION": "XTerm(379)", "XDG_CONFIG_HOME": t.TempDir()}
		o.Getenv = func(k string) string { return env[k] }
	})
	h.send(tea.TerminalVersionMsg{Name: "XTerm(379)"})
	h.send(uv.CellSizeEvent{Width: 6, Height: 13})
	h.send(uv.PrimaryDeviceAttributesEvent{63, 1, 2, 3, 4, 6, 9, 15, 16, 17, 18, 21, 22, 28, 29})
	if h.pictureMode() != preview.Sixel {
		t.Fatalf("xterm as a VT340 draws %v", h.pictureMode())
	}
	sendShot(t, h)
	h.wait("the sixel picture", func() bool { return sixelRE.MatchString(rawWrites(h)) })
	h.quiet()
	h.drain()
	raw := rawWrites(h)
	m := sixelRE.FindAllStringSubmatch(raw, -1)
	if len(m) != 1 {
		t.Fatalf("%d sixel pictures written", len(m))
	}
	if w := atoi(m[0][1]); w%6 != 0 {
		t.Errorf("width %d is not whole cells of 6 pixels", w)
	}
	if h := atoi(m[0][2]); h%13 != 0 {
		t.Errorf("height %d is not whole cells of 13 pixels", h)
	}
	if strings.Contains(h.m.View().Content, "\x1bP") {
		t.Error("sixel data inside the frame")
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// Inside tmux, tmux is asked once the first frame is out; when it draws
// 24-bit colour on its client, the program and the theme switch to it.
func TestTmuxAnswerUpgradesColour(t *testing.T) {
	env := map[string]string{"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color", "XDG_CONFIG_HOME": t.TempDir()}
	h := newHarness(t, 100, 30, func(o *Options) { o.Getenv = func(k string) string { return env[k] } })
	h.send(tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	cmd := h.m.update(tmuxProbedMsg{t: preview.Tmux{ClientTerm: "xterm-256color", RGB: true}})
	if cmd == nil {
		t.Fatal("tmux's answer did nothing")
	}
	var got []tea.Msg
	var collect func(tea.Cmd)
	collect = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				collect(c)
			}
		default:
			got = append(got, msg)
		}
	}
	collect(cmd)
	found := false
	for _, msg := range got {
		if p, ok := msg.(tea.ColorProfileMsg); ok && p.Profile == colorprofile.TrueColor {
			found = true
		}
	}
	if !found {
		t.Errorf("no switch to 24-bit colour in %v", got)
	}
	if cmd := h.m.update(tmuxProbedMsg{t: preview.Tmux{ClientTerm: "xterm-256color"}}); cmd != nil {
		t.Errorf("tmux without RGB changed something")
	}
}

// /about names the terminal with its version and how pictures are drawn.
func TestAboutSaysTerminalAndPictures(t *testing.T) {
	h := newHarness(t, 120, 30, kittyEnv(t))
	h.send(tea.TerminalVersionMsg{Name: "kitty(0.26.5)"})
	h.send(uv.PrimaryDeviceAttributesEvent{62, 52, 4})
	h.typeText("/about")
	h.key("enter")
	text, _ := h.notice()
	for _, want := range []string{"parley test", "terminal: kitty 0.26.5", "pictures: kitty graphics, direct placement", "colours: "} {
		if !strings.Contains(text, want) {
			t.Errorf("/about says %q, without %q", text, want)
		}
	}
}
