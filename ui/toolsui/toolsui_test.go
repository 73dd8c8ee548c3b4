package toolsui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/chat"
	"parley/conversation"
	"parley/mcp"
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
	return &uictx.Context{Width: 100, Height: 30, Theme: th, Styles: th.Styles(false), Keys: keys.Default()}
}

func press(s string) tea.KeyPressMsg {
	if s == "enter" {
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	if s == "esc" {
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

func TestTheApprovalKeys(t *testing.T) {
	a := NewApproval(testCtx(t), chat.ToolAsk{Call: conversation.ToolCallMade{Name: "x", Server: "s", Tool: "x"}})
	for key, want := range map[string]chat.Approval{"y": chat.RunOnce, "enter": chat.RunOnce, "t": chat.AlwaysTool, "s": chat.AlwaysServer, "n": chat.Deny, "esc": chat.Deny} {
		got, ok := a.Update(press(key))
		if !ok || got != want {
			t.Errorf("%s: %v %v, want %v", key, got, ok, want)
		}
	}
	if _, ok := a.Update(press("x")); ok {
		t.Error("x answered the prompt")
	}
}

// What a model or a server sends is drawn inert, bounded, inside the area.
func TestTheBoxesAreSafeAndBounded(t *testing.T) {
	ctx := testCtx(t)
	hostile := "\x1b]52;c;cGF5bG9hZA==\x07\x1b[2J"
	args := `{"path": "` + strings.Repeat("a/", 40) + `\u001b[2J", "n": [` + strings.Repeat("1,", 200) + `1]}`
	a := NewApproval(ctx, chat.ToolAsk{Call: conversation.ToolCallMade{Name: "read" + hostile, Server: "fs" + hostile, Tool: "read" + hostile, Arguments: args}, Index: 1, Of: 3, Round: 2, Max: 8})
	a.SetSize(60, 30)
	box, x, y := a.Box()
	l := NewList(ctx, []mcp.Status{
		{Name: "fs", State: mcp.Failed, Err: "fs exited: " + hostile + strings.Repeat(" long reason", 40)},
		{Name: "web", State: mcp.Connected, Tools: []mcp.Tool{{Server: "web", Name: "fetch", Exposed: "web_fetch", Description: "gets a page" + hostile}}},
	})
	l.SetSize(60, 30)
	lbox, _, _ := l.Box()
	for name, b := range map[string]string{"approval": box, "list": lbox} {
		plain := ansi.Strip(b)
		if strings.ContainsAny(plain, "\x1b\x07") {
			t.Fatalf("%s: a control character reached the box: %q", name, plain)
		}
		lines := strings.Split(b, "\n")
		if len(lines) > 30 {
			t.Fatalf("%s: %d lines in a 30-line area", name, len(lines))
		}
		for _, line := range lines {
			if cells.Width(line) > 60 {
				t.Fatalf("%s: a line of %d cells in a 60-cell area", name, cells.Width(line))
			}
		}
	}
	if x < 0 || y < 0 || !strings.Contains(ansi.Strip(box), "call 2 of 3") || !strings.Contains(ansi.Strip(box), "more lines") {
		t.Fatalf("the approval box at %d,%d:\n%s", x, y, ansi.Strip(box))
	}
	plain := ansi.Strip(lbox)
	if !strings.Contains(plain, "failed") || !strings.Contains(plain, "connected · 1 tools") || !strings.Contains(plain, "web_fetch (fetch)") {
		t.Fatalf("the list:\n%s", plain)
	}
	if act := l.Update(press("r")); act != ListRestart || l.Selected() != "fs" {
		t.Fatalf("r: %v on %q", act, l.Selected())
	}
	l.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if l.Selected() != "web" || l.Update(press("esc")) != ListClose {
		t.Fatalf("down then esc: %q", l.Selected())
	}
}
