package overlay

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// Help is the key help overlay: every binding of the live key map (with the
// user's overrides), grouped by context, in a centred box that scrolls when
// it does not fit.
type Help struct {
	ctx      *uictx.Context
	groups   []keys.Group
	commands []key.Binding // the slash commands, each as its name and what it does

	// Rendered content for (width, gen); rebuilt by SetSize and SetGroups.
	lines    []string
	linesW   int
	linesGen int

	offset        int
	width, height int
}

// Help box geometry: top border (title), hint line, bottom border.
const (
	helpChrome   = 3
	helpMinWidth = 44
	helpMaxWidth = 100
	helpColGap   = 4
)

// NewHelp returns the help overlay for groups (keys.Map.Groups() of the
// live map). A "Lists and text fields" group describing the fixed
// editing keys is added at the end.
func NewHelp(ctx *uictx.Context, groups []keys.Group) Help {
	h := Help{ctx: ctx}
	h.SetGroups(groups)
	return h
}

// commandsGroup says how to reach the slash commands, then lists them.
func commandsGroup(commands []key.Binding) keys.Group {
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	return keys.Group{Title: "Commands", Bindings: append([]key.Binding{
		b("/", "command list (in an empty composer)"),
		b("tab", "complete a command, model, theme, role or path"),
		b("//text", "send text that starts with /"),
	}, commands...)}
}

// CommandBinding is a slash command as the help lists it: its name in the
// key column, its arguments and summary beside it.
func CommandBinding(name, args, summary string) key.Binding {
	desc := summary
	if args != "" {
		desc = args + ": " + summary
	}
	return key.NewBinding(key.WithKeys("/"+name), key.WithHelp("/"+name, desc))
}

// SetCommands sets the slash commands the Commands group lists (see
// CommandBinding), in the order given.
func (h *Help) SetCommands(commands []key.Binding) {
	h.commands = commands
	h.render()
}

// filterGroup documents the keys of every list and one-line input
// (ui/list, ui/lineedit), which the key map does not hold.
func filterGroup() keys.Group {
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	return keys.Group{Title: "Lists and text fields", Bindings: []key.Binding{
		b("type", "filter (case-insensitive, fuzzy)"),
		b("pgup/pgdown", "page up / down"),
		b("home/end", "first / last"),
		b("ctrl+a/ctrl+e", "start / end of the text"),
		b("alt+b/alt+f", "word back / forward"),
		b("ctrl+w", "delete back to a space or /"),
		b("alt+backspace", "delete a word"),
		b("ctrl+u/ctrl+k", "delete to the start / end"),
	}}
}

// SetGroups replaces the groups (after the key map changed).
func (h *Help) SetGroups(groups []keys.Group) {
	h.groups = append([]keys.Group(nil), groups...)
	h.render()
}

// SetSize sets the area the overlay draws in. Call it on open and resize.
func (h *Help) SetSize(width, height int) {
	h.width, h.height = max(width, 0), max(height, 0)
	h.render()
	h.clamp()
}

// HelpClosed is the help's one action: the user asked to close it.
type HelpClosed struct{}

// Update scrolls on the scroll keys and the mouse wheel; its action is
// HelpClosed when the user asked to close (esc, ?, F1, q, or the help or
// close key of the key map).
func (h *Help) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	var closed bool
	*h, closed = h.update(msg)
	if closed {
		return nil, HelpClosed{}
	}
	return nil, nil
}

// Draw draws the box and says where it goes in the area.
func (h *Help) Draw() (box string, x, y int) { return h.Box() }

// Hints are the help's keys: the way out, and scrolling.
func (h *Help) Hints() []uictx.Hint {
	return []uictx.Hint{{Key: uictx.KeyOf(h.ctx.Keys.Close, ""), Desc: "close"}, {Key: "pgup/pgdn", Desc: "scroll"}}
}

// KeysChanged shows the key map the terminal's keyboard support made
// (its holder calls it when the key map changes).
func (h *Help) KeysChanged(km keys.Map) { h.SetGroups(km.Groups()) }

// update scrolls; closed is true when the user asked to close.
func (h Help) update(msg tea.Msg) (_ Help, closed bool) {
	page := max(h.bodyRows()-1, 1)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		lk := listKeysFor(h.ctx, false)
		ks := msg.Keystroke()
		switch {
		case lk.cancel(msg) || lk.matches(msg, h.ctx.Keys.Help, "?", "f1", "q"):
			return h, true
		case lk.up(msg) || ks == "k":
			h.offset--
		case lk.down(msg) || ks == "j":
			h.offset++
		case lk.pageUp(msg) || ks == "b":
			h.offset -= page
		case lk.pageDown(msg) || ks == "space" || ks == "f":
			h.offset += page
		case lk.first(msg) || ks == "g":
			h.offset = 0
		case lk.last(msg) || msg.String() == "G":
			h.offset = len(h.lines)
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			h.offset -= 3
		case tea.MouseWheelDown:
			h.offset += 3
		}
	}
	h.clamp()
	return h, false
}

// geometry returns the box size.
func (h Help) geometry() (bw, bh int) {
	bw = min(h.width, max(helpMinWidth, min(helpMaxWidth, h.width*9/10)))
	bh = min(h.height, len(h.lines)+helpChrome)
	return bw, bh
}

func (h Help) bodyRows() int {
	_, bh := h.geometry()
	return max(bh-helpChrome, 0)
}

func (h *Help) clamp() {
	h.offset = max(min(h.offset, len(h.lines)-h.bodyRows()), 0)
}

// contentWidth is the width the help text is laid out in: the box minus
// border and one column of padding each side.
func (h Help) contentWidth() int {
	bw := min(h.width, max(helpMinWidth, min(helpMaxWidth, h.width*9/10)))
	return max(bw-4, 1)
}

// all is every group the help shows: the key map's, the commands, and the
// keys of lists and text fields.
func (h Help) all() []keys.Group {
	return append(append(h.groups[:len(h.groups):len(h.groups)], commandsGroup(h.commands)), filterGroup())
}

// render lays the groups out for the current width and theme.
func (h *Help) render() {
	cw := h.contentWidth()
	h.lines = helpLines(h.all(), cw, lookFor(h.ctx))
	h.linesW = cw
	h.linesGen = h.ctx.StyleGen
}

// View renders the help box centred in the area.
func (h Help) View() string {
	bw, _ := h.geometry()
	return place(h.box(), bw, h.width, h.height)
}

// Box renders the box alone and where it goes in the area (for
// compositing over the transcript).
func (h Help) Box() (box string, x, y int) {
	lines := h.box()
	if len(lines) == 0 {
		return "", 0, 0
	}
	return strings.Join(lines, "\n"), max((h.width-lipgloss.Width(lines[0]))/2, 0), max((h.height-len(lines))/2, 0)
}

func (h Help) box() []string {
	bw, bh := h.geometry()
	lk := lookFor(h.ctx)
	lines := h.lines
	if h.linesGen != h.ctx.StyleGen || h.linesW != h.contentWidth() {
		// The theme changed since SetSize (or SetSize was never called):
		// render now rather than show stale colours.
		lines = helpLines(h.all(), h.contentWidth(), lk)
	}
	if bw < 5 || bh < 3 { // too small for a frame and padding
		return block([]string{"Keys"}, bw, bh)
	}
	iw := bw - 2
	cw := iw - 2
	rows := bh - helpChrome
	var inner []string
	for i := h.offset; i < h.offset+rows && i < len(lines); i++ {
		inner = append(inner, " "+cells.Fit(lines[i], cw)+" ")
	}
	inner = padLines(inner, iw, rows)
	inner = append(inner, " "+cells.Fit(lk.muted.Render(h.footer(rows, len(lines), cw)), cw)+" ")
	return frame(inner, iw, lk.border, " "+lk.title.Render("Keys")+" ")
}

// footer says how to close and, when the text scrolls, which lines show.
func (h Help) footer(rows, total, w int) string {
	closeKey := hint(h.ctx.Keys.Close, "esc")
	if total <= rows {
		return closeKey + " close"
	}
	pos := strconv.Itoa(h.offset+1) + "–" + strconv.Itoa(min(h.offset+rows, total)) + "/" + strconv.Itoa(total)
	for _, left := range []string{"↑↓ pgup/pgdn scroll · " + closeKey + " close", "↑↓ scroll · " + closeKey + " close"} {
		if gap := w - lipgloss.Width(left) - lipgloss.Width(pos); gap >= 1 {
			return left + strings.Repeat(" ", gap) + pos
		}
	}
	return "↑↓ scroll · " + closeKey + " close"
}
