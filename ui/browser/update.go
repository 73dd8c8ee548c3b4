package browser

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// Update handles a key, a paste, the mouse wheel, or a message of the
// browser's own work; its action, when not nil, is a Result, what the root
// should do (uictx.Component).
func (b *Browser) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	res, cmd := b.update(msg)
	if res.Action == None {
		return cmd, nil
	}
	return cmd, res
}

// update is Update with its Result as it is.
func (b *Browser) update(msg tea.Msg) (Result, tea.Cmd) {
	switch msg.(type) {
	case listedMsg, searchDueMsg, searchedMsg, changedMsg, tea.KeyPressMsg, tea.PasteMsg, tea.MouseWheelMsg:
		defer b.layout()
	default:
		return Result{}, nil // not the browser's: nothing changes, the view stays cached
	}
	switch msg := msg.(type) {
	case listedMsg:
		if msg.b == b {
			b.listed(msg)
		}
	case searchDueMsg:
		if msg.b == b && msg.gen == b.searchGen {
			return Result{}, b.searchCmd()
		}
	case searchedMsg:
		if msg.b == b && msg.gen == b.searchGen {
			b.searched(msg)
		}
	case changedMsg:
		if msg.b == b {
			return b.changed(msg)
		}
	case tea.KeyPressMsg:
		return b.key(msg)
	case tea.PasteMsg:
		return Result{}, b.edit(msg)
	case tea.MouseWheelMsg:
		if b.mode == browsing {
			b.list.Update(msg)
		}
	}
	return Result{}, nil
}

func (b *Browser) listed(msg listedMsg) {
	b.loaded = true
	if msg.err != nil {
		b.err = cells.Fold(msg.err.Error())
		return
	}
	b.all, b.err = msg.metas, ""
	b.setItems()
}

func (b *Browser) searched(msg searchedMsg) {
	b.cancel = nil
	b.searching = false
	switch {
	case msg.timedOut:
		b.timedOut = true
	case msg.err != nil:
		b.err = cells.Fold(msg.err.Error())
	default:
		b.hits, b.hitsOf = msg.hits, msg.query
		b.setItems()
	}
}

// changed takes the store's answer to a rename or a delete: the list is
// read again (and the search run again), and the root hears of it.
func (b *Browser) changed(msg changedMsg) (Result, tea.Cmd) {
	if msg.err != nil {
		b.err = cells.Fold(msg.err.Error())
		return Result{}, nil
	}
	b.err = ""
	b.stopSearch()
	b.searching = b.query() != ""
	return Result{Action: msg.action, SessionID: msg.id, Title: msg.title}, tea.Batch(b.listCmd(), b.searchCmd())
}

// key handles a key press in the browser's current mode.
func (b *Browser) key(msg tea.KeyPressMsg) (Result, tea.Cmd) {
	km := &b.ctx.Keys
	switch b.mode {
	case renaming:
		switch {
		case keys.Matches(msg, km.Close) || msg.Keystroke() == "esc":
			b.mode, b.err = browsing, ""
		case keys.Matches(msg, km.Select) || msg.Keystroke() == "enter":
			if strings.TrimSpace(b.rename.Value()) == "" {
				b.err = "a session needs a title: type one, or esc keeps the old one"
				return Result{}, nil
			}
			b.mode, b.err = browsing, ""
			return Result{}, b.saveTitle()
		default:
			b.rename.Update(msg)
		}
		return Result{}, nil
	case confirmingDelete:
		b.mode = browsing
		if msg.Keystroke() == "y" || msg.String() == "y" {
			return Result{}, b.deleteSelected()
		}
		return Result{}, nil
	}
	switch ks := msg.Keystroke(); {
	case keys.Matches(msg, km.Close) || ks == "esc":
		b.stopSearch()
		return Result{Action: Close}, nil
	case keys.Matches(msg, km.Select) || ks == "enter":
		return b.open(), nil
	case ks == renameKey:
		if e, ok := b.list.Selected(); ok {
			b.mode = renaming
			title := e.meta.Title
			if e.hit {
				title = e.msg.SessionTitle
			}
			b.rename.SetValue(title)
		}
	case ks == deleteKey:
		if _, ok := b.list.Selected(); ok {
			b.mode = confirmingDelete
		}
	case keys.Matches(msg, km.NewConversation):
		b.stopSearch()
		return Result{Action: NewConversation}, nil
	case b.list.Update(msg):
	default:
		return Result{}, b.edit(msg)
	}
	return Result{}, nil
}

// edit gives a key or a paste to the filter; a change filters the titles
// and starts the debounce of the search.
func (b *Browser) edit(msg tea.Msg) tea.Cmd {
	if b.mode == renaming {
		b.rename.Update(msg)
		return nil
	}
	if b.mode != browsing || !b.filter.Update(msg) {
		return nil
	}
	b.list.SetQuery(b.filter.Value())
	return b.queryChanged()
}

// open is enter: the session, or the session of a message at it.
func (b *Browser) open() Result {
	e, ok := b.list.Selected()
	if !ok {
		return Result{}
	}
	b.stopSearch()
	if e.hit {
		return Result{Action: Open, SessionID: e.msg.SessionID, Jump: e.msg.MessageID}
	}
	return Result{Action: Open, SessionID: e.meta.ID}
}

// saveTitle renames the highlighted session to what was typed.
func (b *Browser) saveTitle() tea.Cmd {
	e, ok := b.list.Selected()
	title := strings.TrimSpace(b.rename.Value())
	if !ok || title == "" {
		return nil
	}
	return b.renameCmd(e.sessionID(), title)
}

// deleteSelected deletes the highlighted session.
func (b *Browser) deleteSelected() tea.Cmd {
	e, ok := b.list.Selected()
	if !ok {
		return nil
	}
	return b.deleteCmd(e.sessionID(), e.title())
}
