package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// The command list is the pane above the composer while a slash command is
// typed. The composer stays the one editor: the list reads its text after
// every edit and tells the root what to do with a key (ui/slash).

// maxMenuRows bounds the pane.
const maxMenuRows = 12

// commandMenu is the command list: the registry's commands filtered by
// the composer's text, with completion of their arguments.
type commandMenu struct {
	slash.List[commandEnv]
}

// open shows the list for the "/" just typed; env is what completion
// offers now.
func (c *commandMenu) open(env commandEnv, text string) tea.Cmd {
	return tea.Batch(c.SetEnv(env), c.Open(text))
}

// sync tells the list the composer's text after an edit.
func (c *commandMenu) sync(text string) tea.Cmd {
	if !c.IsOpen() {
		return nil
	}
	return c.SetInput(text)
}

// menuKey gives a key (or a completion result) to the open list and acts
// on its outcome; done is false when the key is the composer's.
func (m *Model) menuKey(msg tea.Msg) (tea.Cmd, bool) {
	res, cmd := m.menu.Update(msg)
	switch res.Outcome {
	case slash.Pass:
		return nil, false
	case slash.Replace:
		m.comp.setValue(res.Text)
	case slash.Run:
		m.comp.clearText()
		return tea.Batch(cmd, m.runCommand(res.Invocation)), true
	case slash.Send:
		// The composer still holds "//text"; send parses it to "/text".
		return tea.Batch(cmd, m.send()), true
	case slash.Fail:
		return tea.Batch(cmd, m.notes.show(res.Err.Error(), toastErr)), true
	case slash.Closed:
		m.comp.setValue(res.Text)
	}
	return cmd, true
}

// menuHints are the keys of the open list.
func menuHints(km *keys.Map) []uictx.Hint {
	return []uictx.Hint{{Key: "type", Desc: "filter"}, {Key: keyOf(km.ListUp) + "/" + keyOf(km.ListDown), Desc: "move"}, {Key: "tab", Desc: "complete"}, {Key: keyOf(km.Send), Desc: "run"}, {Key: keyOf(km.Close), Desc: "close"}}
}
