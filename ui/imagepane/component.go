package imagepane

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/uictx"
)

// Name identifies the pane to the chat's side-pane slot.
func (p *Pane) Name() string { return "images" }

// Update handles a key the pane binds (see Binds), or a message of its
// own work (the save prompt's completions and proposals), or a paste
// while the save prompt is open. What it asks of the chat is one of
// Closed, Said or Chosen; nil asks nothing.
func (p *Pane) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return p.handleKey(k)
	}
	return p.handleMsg(msg), nil
}

// SetSize gives the pane its rectangle.
func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }

// Draw draws the pane into exactly its rectangle, with the selected
// image's preview once it has been made (TakePicture), and notes the
// preview the selection needs (WantedPicture names it). It decodes
// nothing and scrolls the list to keep the selection in view, so it runs
// in Update (the chat's composeFrame), never in View.
func (p *Pane) Draw() (string, int, int) {
	return p.render(p.w, p.h, p.previewFor(p.w, p.h), p.focused), 0, 0
}

// Binds reports whether the pane takes a message while it has the keys:
// every key and paste while the save prompt is open; otherwise the keys
// that move the selection, the action letters and esc. The chat gives any
// other key (a printable character, "/", enter) back to the composer, with
// the focus.
func (p *Pane) Binds(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p.bindsKey(msg)
	case tea.PasteMsg:
		return p.prompt != nil
	}
	return false
}

// Hints are the keys that matter while the pane has the keys, for the
// chat's hint line and help.
func (p *Pane) Hints() []uictx.Hint {
	if p.prompt != nil {
		return []uictx.Hint{{Key: "enter", Desc: "save"}, {Key: "tab", Desc: "complete"}, {Key: "esc", Desc: "cancel"}}
	}
	return []uictx.Hint{
		{Key: "↑/↓", Desc: "choose"}, {Key: "a", Desc: "attach"}, {Key: "e", Desc: "edit"}, {Key: "o", Desc: "open"},
		{Key: "c", Desc: "copy path"}, {Key: "y", Desc: "copy image"}, {Key: "s", Desc: "save a copy"}, {Key: "esc", Desc: "back to the message"},
	}
}
