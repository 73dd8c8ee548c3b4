package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"parley/api/apitest"
	"parley/themes"
)

// goldenReply exercises what a reply usually holds.
const goldenReply = "## Plan\n\nHere is **what** to do, with `inline code`:\n\n1. Read the file\n2. Count the lines\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n| name | size |\n|------|------|\n| a.go | 12 |\n\n> Quoted note with 日本語 and 🎉.\n"

// goldenScreen builds a finished two-turn conversation at a size and theme.
func goldenScreen(t *testing.T, w, h int, theme string) *harness {
	t.Helper()
	hs := newHarness(t, w, h, func(o *Options) { o.Theme = theme })
	hs.srv.Enqueue(apitest.Reply{Text: goldenReply})
	hs.typeText("How do I count lines in Go? 漢字 é")
	hs.key("enter")
	hs.wait("reply", func() bool { return !hs.streaming() })
	hs.quiet()
	return hs
}

func TestGoldenScreens(t *testing.T) {
	for _, th := range themes.Builtins() {
		for _, sz := range [][2]int{{80, 24}, {40, 12}} {
			name := th.Name + "_" + itoa(sz[0]) + "x" + itoa(sz[1])
			t.Run(name, func(t *testing.T) {
				h := goldenScreen(t, sz[0], sz[1], th.Name)
				checkFrame(t, h.m, sz[0], sz[1])
				golden.RequireEqual(t, h.m.View().Content)
			})
		}
	}
}

func TestGoldenStates(t *testing.T) {
	t.Run("streaming_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24, func(o *Options) { o.Theme = "dark" })
		h.srv.Enqueue(apitest.Reply{Text: "Streaming text so far, and more to come", DeltaRunes: 10, StallAfterDeltas: 2})
		h.typeText("stream please")
		h.key("enter")
		h.wait("text", func() bool { return lastReplyMsg(h).Text == "Streaming text so fa" })
		h.clock.advance(1500 * time.Millisecond)
		h.m.spin.frame = 3
		h.send(frameMsg{id: h.eng.Reply().ID})
		checkFrame(t, h.m, 80, 24)
		golden.RequireEqual(t, h.m.View().Content)
		h.key("esc")
	})
	t.Run("failed_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24, func(o *Options) { o.Theme = "dark" })
		// The failure is injected as the stream's end, so the golden does
		// not depend on how the api package words gateway errors.
		h.srv.Enqueue(apitest.Reply{Text: "Partial answer", DeltaRunes: 7, StallAfterDeltas: 1})
		h.typeText("will fail")
		h.key("enter")
		h.wait("text", func() bool { return lastReplyMsg(h).Text == "Partial" })
		h.eng.Reply().Pump().End(errors.New("the gateway is overloaded (503); wait a moment and press ctrl+r"))
		h.send(frameMsg{id: h.eng.Reply().ID})
		h.quiet()
		golden.RequireEqual(t, h.m.View().Content)
	})
	t.Run("help_80x24", func(t *testing.T) {
		h := goldenScreen(t, 80, 24, "dark")
		h.key("f1")
		golden.RequireEqual(t, h.m.View().Content)
	})
	t.Run("help_40x12", func(t *testing.T) {
		// Too small for a panel: the help takes the whole screen.
		h := goldenScreen(t, 40, 12, "dark")
		h.key("f1")
		checkFrame(t, h.m, 40, 12)
		golden.RequireEqual(t, h.m.View().Content)
	})
	t.Run("models_40x12", func(t *testing.T) {
		h := goldenScreen(t, 40, 12, "dark")
		h.key("ctrl+o")
		h.wait("list", func() bool { return !strings.Contains(h.screen(), "asking") })
		checkFrame(t, h.m, 40, 12)
		golden.RequireEqual(t, h.m.View().Content)
	})
	t.Run("editing_40x12", func(t *testing.T) {
		h := goldenScreen(t, 40, 12, "light")
		h.key("up")
		golden.RequireEqual(t, h.m.View().Content)
	})
	t.Run("nocolor_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24, func(o *Options) {
			o.Getenv = func(k string) string { return map[string]string{"NO_COLOR": "1"}[k] }
		})
		h.srv.Enqueue(apitest.Reply{Text: goldenReply})
		h.typeText("no colour")
		h.key("enter")
		h.wait("reply", func() bool { return !h.streaming() })
		h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		golden.RequireEqual(t, h.m.View().Content)
	})
}
