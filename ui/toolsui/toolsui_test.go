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
	a := NewApproval(testCtx(t), chat.ToolAsk{Call: conversation.ToolCallMade{ID: "call_7", Name: "x", Server: "s", Tool: "x"}})
	for key, want := range map[string]chat.Approval{"y": chat.RunOnce, "enter": chat.RunOnce, "t": chat.AlwaysTool, "s": chat.AlwaysServer, "n": chat.Deny, "esc": chat.Deny} {
		_, act := a.Update(press(key))
		if got, ok := act.(ApprovalAnswer); !ok || got != (ApprovalAnswer{Call: "call_7", Answer: want}) {
			t.Errorf("%s: %#v, want the answer %v to call_7", key, act, want)
		}
	}
	if _, act := a.Update(press("x")); act != nil {
		t.Errorf("x answered the prompt: %#v", act)
	}
}

// What a model or a server sends is drawn inert, bounded, inside the area.
func TestTheBoxesAreSafeAndBounded(t *testing.T) {
	ctx := testCtx(t)
	hostile := "\x1b]52;c;cGF5bG9hZA==\x07\x1b[2J"
	args := `{"path": "` + strings.Repeat("a/", 40) + `\u001b[2J", "n": [` + strings.Repeat("1,", 200) + `1]}`
	a := NewApproval(ctx, chat.ToolAsk{Call: conversation.ToolCallMade{Name: "read" + hostile, Server: "fs" + hostile, Tool: "read" + hostile, Arguments: args}, Index: 1, Of: 3, Round: 2, Max: 8})
	a.SetSize(60, 30)
	box, x, y := a.Draw()
	l := NewList(ctx, []mcp.Status{
		{Name: "fs", State: mcp.Failed, Err: "fs exited: " + hostile + strings.Repeat(" long reason", 40)},
		{Name: "web", State: mcp.Connected, Tools: []mcp.Tool{{Server: "web", Name: "fetch", Exposed: "web_fetch", Description: "gets a page" + hostile}}},
	})
	l.SetSize(60, 30)
	lbox, _, _ := l.Draw()
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
	if _, act := l.Update(press("r")); act != (ListResult{Action: ListRestart, Server: "fs"}) {
		t.Fatalf("r: %#v", act)
	}
	if _, act := l.Update(tea.KeyPressMsg{Code: tea.KeyDown}); act != nil || l.Selected() != "web" {
		t.Fatalf("down: %#v on %q", act, l.Selected())
	}
	if _, act := l.Update(press("r")); act != (ListResult{Action: ListRestart, Server: "web"}) {
		t.Fatalf("r on web: %#v", act)
	}
	if _, act := l.Update(press("esc")); act != (ListResult{Action: ListClose}) {
		t.Fatalf("esc: %#v", act)
	}
}
