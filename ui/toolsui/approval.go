package toolsui

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/chat"
	"parley/ui/cells"
	"parley/ui/uictx"
)

// Bounds of what the prompt shows of a call's arguments.
const (
	maxArgLines = 16
	maxArgBytes = 16 << 10
)

// Approval asks about one tool call: which tool of which server, with
// which arguments.
type Approval struct {
	ctx  *uictx.Context
	ask  chat.ToolAsk
	w, h int
}

// NewApproval is the prompt for ask.
func NewApproval(ctx *uictx.Context, ask chat.ToolAsk) *Approval {
	return &Approval{ctx: ctx, ask: ask}
}

// Ask is the call the prompt is about.
func (a *Approval) Ask() chat.ToolAsk { return a.ask }

// SetSize gives the prompt its area.
func (a *Approval) SetSize(w, h int) { a.w, a.h = w, h }

// ApprovalAnswer is the prompt's action: the user's answer to the call
// whose id is Call. The holder gives it to the engine (Engine.Answer) and
// closes the prompt.
type ApprovalAnswer struct {
	Call   string
	Answer chat.Approval
}

// Update takes a key; its action is the ApprovalAnswer once one is given:
// y or enter run once, t always runs the tool, s every tool of its server
// (both for this session), n or esc deny.
func (a *Approval) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	answer := func(v chat.Approval) (tea.Cmd, uictx.Action) {
		return nil, ApprovalAnswer{Call: a.ask.Call.ID, Answer: v}
	}
	switch k.String() {
	case "y", "enter":
		return answer(chat.RunOnce)
	case "t":
		return answer(chat.AlwaysTool)
	case "s":
		return answer(chat.AlwaysServer)
	case "n", "esc":
		return answer(chat.Deny)
	}
	return nil, nil
}

// Binds reports the keys the prompt takes (it takes every key: a call
// waits for an answer, and typing goes nowhere meanwhile).
func (a *Approval) Binds(tea.KeyPressMsg) bool { return true }

// Hints are the prompt's keys.
func (a *Approval) Hints() []uictx.Hint {
	return []uictx.Hint{{Key: "y", Desc: "run once"}, {Key: "t", Desc: "always this tool"}, {Key: "s", Desc: "always this server"}, {Key: "n", Desc: "deny"}}
}

// Draw draws the prompt and says where it goes in its area.
func (a *Approval) Draw() (string, int, int) {
	st := &a.ctx.Styles
	iw := max(min(a.w-4, 88), 20)
	c := a.ask.Call
	var lines []string
	add := func(s string) { lines = append(lines, cells.Fit(s, iw)) }
	title := "Run a tool?"
	if a.ask.Of > 1 {
		title = fmt.Sprintf("Run a tool? (call %d of %d)", a.ask.Index+1, a.ask.Of)
	}
	add(st.OverlayTitle.Render(title))
	add("")
	add(st.Muted.Render("tool    ") + cells.OneLine(c.Tool))
	add(st.Muted.Render("server  ") + cells.OneLine(c.Server))
	if a.ask.Max > 0 {
		add(st.Muted.Render("round   ") + fmt.Sprintf("%d of at most %d", a.ask.Round, a.ask.Max))
	}
	add("")
	add(st.Muted.Render("arguments"))
	for _, l := range wrap(pretty(c.Arguments), iw-2, maxArgLines) {
		add("  " + l)
	}
	add("")
	add(a.ctx.HintLine(a.Hints(), iw))
	return frame(a.ctx, lines, a.w, a.h)
}

// pretty indents arguments that are JSON, bounded.
func pretty(s string) string {
	if len(s) > maxArgBytes {
		return s[:maxArgBytes]
	}
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(b)
}
