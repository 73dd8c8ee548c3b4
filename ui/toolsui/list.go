package toolsui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/mcp"
	"parley/ui/cells"
	"parley/ui/uictx"
)

// maxDescLines bounds the description shown of one tool.
const maxDescLines = 2

// List is /tools: every configured server with its state (connected,
// starting, failed with the reason) and the tools of the connected ones.
type List struct {
	ctx    *uictx.Context
	status []mcp.Status
	sel    int // the selected server
	top    int // the first line shown
	w, h   int
}

// ListAction is what the user asked of the list.
type ListAction int

// The list's actions.
const (
	ListClose   ListAction = iota + 1 // esc or q
	ListRestart                       // r: restart the selected server
)

// ListResult is the list's action: close it, or restart Server. The
// holder restarts it and shows the list the servers' state (SetStatus).
type ListResult struct {
	Action ListAction
	Server string
}

// NewList lists status.
func NewList(ctx *uictx.Context, status []mcp.Status) *List {
	return &List{ctx: ctx, status: status}
}

// SetStatus shows the servers as they are now (a start ended meanwhile).
func (l *List) SetStatus(status []mcp.Status) {
	l.status = status
	l.sel = min(l.sel, max(len(status)-1, 0))
}

// SetSize gives the list its area.
func (l *List) SetSize(w, h int) { l.w, l.h = w, h }

// Selected is the name of the selected server ("" with none).
func (l *List) Selected() string {
	if l.sel < len(l.status) {
		return l.status[l.sel].Name
	}
	return ""
}

// Update takes a key; its action is a ListResult when the key asks the
// holder for something.
func (l *List) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	switch k.String() {
	case "esc", "q":
		return nil, ListResult{Action: ListClose}
	case "r":
		if len(l.status) > 0 {
			return nil, ListResult{Action: ListRestart, Server: l.Selected()}
		}
	case "up", "k":
		l.sel = max(l.sel-1, 0)
	case "down", "j":
		l.sel = min(l.sel+1, max(len(l.status)-1, 0))
	case "pgup":
		l.top = max(l.top-l.h/2, 0)
	case "pgdown":
		l.top += l.h / 2
	}
	return nil, nil
}

// Hints are the list's keys.
func (l *List) Hints() []uictx.Hint {
	return []uictx.Hint{{Key: "↑/↓", Desc: "server"}, {Key: "r", Desc: "restart it"}, {Key: "pgup/pgdn", Desc: "scroll"}, {Key: "esc", Desc: "close"}}
}

// Draw draws the list and says where it goes in its area.
func (l *List) Draw() (string, int, int) {
	st := &l.ctx.Styles
	iw := max(min(l.w-4, 96), 24)
	var body []string
	add := func(s string) { body = append(body, cells.Fit(s, iw)) }
	if len(l.status) == 0 {
		add("No MCP servers are configured. Add a [[mcp_servers]] entry to the config (see the README's Tools section).")
	}
	for i, s := range l.status {
		mark := "  "
		if i == l.sel {
			mark = "▸ "
		}
		state := s.State.String()
		switch s.State {
		case mcp.Connected:
			state = st.Accent.Render(fmt.Sprintf("connected · %d tools", len(s.Tools)))
		case mcp.Failed:
			state = st.Error.Render("failed")
		default:
			state = st.Muted.Render(state)
		}
		add(mark + st.Accent.Bold(true).Render(cells.OneLine(s.Name)) + "  " + state)
		if s.Err != "" {
			for _, line := range wrap(s.Err, iw-4, 4) {
				add("    " + st.Error.Render(line))
			}
		}
		for _, t := range s.Tools {
			name := t.Exposed
			if name != t.Name {
				name = t.Exposed + " (" + t.Name + ")"
			}
			add("    " + cells.OneLine(name))
			if t.Description != "" {
				for _, line := range wrap(t.Description, iw-6, maxDescLines) {
					add("      " + st.Muted.Render(line))
				}
			}
		}
	}
	room := max(l.h-6, 3)
	l.top = min(l.top, max(len(body)-room, 0))
	shown := body[l.top:min(len(body), l.top+room)]
	lines := []string{cells.Fit(st.OverlayTitle.Render("Tools"), iw), ""}
	lines = append(lines, shown...)
	lines = append(lines, "", cells.Fit(l.ctx.HintLine(l.Hints(), iw), iw))
	return frame(l.ctx, lines, l.w, l.h)
}
