package ui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// The message cursor: esc in an empty composer selects the last message;
// the arrows (and k/j) move between messages; keys act on the selected
// one: copy it or a code block of it, edit it as a new branch, regenerate
// it as a new alternative, switch between its alternatives, fork a new
// session from it, leave its turn out of what the model sees. esc, or any
// other key that types, goes back to the composer.

// selectMessage puts the cursor on message id and shows it.
func (m *Model) selectMessage(id int) {
	m.focus.toMessage(id)
	m.tr.List().Reveal(id)
}

// cursorStep is the message before (-1) or after (+1) the selected one on
// the path, clamped at the ends.
func cursorStep(path []conversation.Message, id, delta int) int {
	for i, msg := range path {
		if msg.ID == id {
			return path[clamp(i+delta, 0, len(path)-1)].ID
		}
	}
	if len(path) == 0 {
		return 0
	}
	return path[len(path)-1].ID
}

// cursorHints are the keys of the message cursor, for the selected
// message.
func cursorHints(msg conversation.Message) []uictx.Hint {
	h := []uictx.Hint{{Key: "↑/↓", Desc: "move"}, {Key: "y", Desc: "copy"}}
	switch {
	case msg.Role == api.RoleUser:
		h = append(h, uictx.Hint{Key: "e", Desc: "edit as a new branch"})
	case msg.Role == api.RoleAssistant:
		h = append(h, uictx.Hint{Key: "r", Desc: "regenerate"}, uictx.Hint{Key: "R", Desc: "with another model"})
	case msg.IsImages():
		h = append(h, uictx.Hint{Key: "r", Desc: "regenerate"})
	}
	if msg.AltCount > 1 {
		h = append(h, uictx.Hint{Key: "←/→", Desc: fmt.Sprintf("alternative %d/%d", msg.AltIndex+1, msg.AltCount)})
	}
	out := "leave out"
	if msg.Excluded {
		out = "bring back"
	}
	return append(h, uictx.Hint{Key: "f", Desc: "fork"}, uictx.Hint{Key: "d", Desc: out}, uictx.Hint{Key: "esc", Desc: "back"})
}

// cursorKey handles a key while the message cursor has the focus. A key
// it does not use goes back to the composer, typed there.
func (m *Model) cursorKey(msg tea.KeyPressMsg) tea.Cmd {
	sel, ok := m.eng.Conv().ByID(m.focus.msg)
	if !ok {
		m.focus.toComposer()
		return m.chatKey(msg)
	}
	k, s := msg.Keystroke(), msg.String()
	switch {
	case k == "esc" || keys.Matches(msg, m.ctx.Keys.Cancel):
		m.focus.toComposer()
		return nil
	case k == "up" || s == "k":
		m.selectMessage(cursorStep(m.eng.Conv().Messages(), sel.ID, -1))
	case k == "down" || s == "j":
		m.selectMessage(cursorStep(m.eng.Conv().Messages(), sel.ID, 1))
	case k == "home" || s == "g":
		m.selectMessage(cursorStep(m.eng.Conv().Messages(), sel.ID, -m.eng.Conv().Len()))
	case k == "end" || s == "G":
		m.selectMessage(cursorStep(m.eng.Conv().Messages(), sel.ID, m.eng.Conv().Len()))
	case k == "left" || s == "h" || k == "right" || s == "l":
		id, refused := switchAlternative(m.eng.Conv(), sel, k == "right" || s == "l")
		if refused.text != "" {
			return m.notes.say(refused)
		}
		m.selectMessage(id)
	case s == "y":
		return copyText(m.opts.clipboardWrite(m.desktop, m.base), "message", sel.WithTools())
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9':
		return m.notes.copied(copyBlock(m.tr, m.opts.clipboardWrite(m.desktop, m.base), sel.ID, int(s[0]-'0'), "this message"))
	case s == "e" || k == "enter":
		return m.editAsBranch(sel)
	case s == "r":
		return m.regenerate(sel.ID, "")
	case s == "R" && sel.Role != api.RoleAssistant:
		return m.notes.show("R regenerates a reply with another model: select a reply (↓)", toastInfo)
	case s == "R":
		// The model picker, whose choice answers the reply's question
		// again (the chat's model stays).
		return m.openModels(regenerateWith{reply: sel.ID}, overlay.ModelList{Current: sel.Model})
	case s == "f":
		return m.fork(sel)
	case s == "d":
		return m.notes.show(toggleExcluded(m.eng.Conv(), sel))
	default:
		m.focus.toComposer()
		return m.chatKey(msg)
	}
	return m.tickIfNeeded()
}

// treeRefusal words a refusal of a tree operation.
func treeRefusal(err error) (string, toastKind) {
	if errors.Is(err, conversation.ErrPartial) {
		return "the session is still opening; try again in a moment", toastInfo
	}
	return userSentence(err), toastWarn
}

// switchAlternative makes the previous or next alternative of sel, and the
// branch that follows it to its end, the path; id is the alternative, or
// refused says why there is none.
func switchAlternative(conv *conversation.Conversation, sel conversation.Message, next bool) (id int, refused noticeResult) {
	if sel.AltCount < 2 {
		return 0, noticeResult{"this message has no alternatives: r makes one (regenerate), e edits a message of yours as a new branch", toastInfo}
	}
	delta := -1
	if next {
		delta = 1
	}
	id, err := conv.SwitchAlternative(sel.ID, delta)
	if err != nil {
		text, kind := treeRefusal(err)
		return 0, noticeResult{text, kind}
	}
	return id, noticeResult{}
}

// editAsBranch puts a message of the user into the composer: sending it
// makes a new branch from that point, and the earlier path stays.
func (m *Model) editAsBranch(sel conversation.Message) tea.Cmd {
	if sel.Role != api.RoleUser {
		return m.notes.show("e edits a message you wrote; on a reply, r regenerates it", toastInfo)
	}
	if m.eng.Reply() != nil {
		return m.notes.show("a reply is still streaming; press esc to stop it first", toastWarn)
	}
	m.focus.toComposer()
	text := "editing: enter sends it as a new branch, the earlier one stays (esc leaves it)"
	// One notice: a second would cover the first under the composer.
	if block := m.comp.editMessage(sel.ID, sel.Text, sel.Attachments); block.text != "" {
		text += "; " + block.text
	}
	return m.notes.show(text, toastInfo)
}

// fork starts a new session holding the conversation up to and including
// sel, and opens it. Without history (none this run, or a store still
// opening that then cannot open) it becomes the conversation on screen.
// Either way the fork comes back as a forkedMsg.
func (m *Model) fork(sel conversation.Message) tea.Cmd {
	snap, err := m.eng.Conv().Fork(sel.ID)
	if err != nil {
		return m.notes.show(treeRefusal(err))
	}
	m.focus.toComposer()
	store := m.hist.Store
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if store == nil || openFailed(ctx, store) {
			return forkedMsg{unsaved: &snap}
		}
		id, err := store.Fork(ctx, snap)
		return forkedMsg{id: id, err: err}
	}
}

// forkedMsg brings the new session of a fork, or the fork itself
// (unsaved) for a chat without history.
type forkedMsg struct {
	id      string
	err     error
	unsaved *conversation.Snapshot
}

// toggleExcluded leaves sel's turn out of what the model sees, or brings it
// back, and says which.
func toggleExcluded(conv *conversation.Conversation, sel conversation.Message) (string, toastKind) {
	if err := conv.SetExcluded(sel.ID, !sel.Excluded); err != nil {
		return treeRefusal(err)
	}
	if sel.Excluded {
		return "this turn is sent to the model again", toastInfo
	}
	return "this turn is left out of what the model sees (d brings it back)", toastInfo
}

// shownCursor is the message the transcript marks: the cursor's, while it
// has the focus and no layer hides it (0: none).
func shownCursor(f focus, conv *conversation.Conversation, layerOpen bool) int {
	if f.on != focusMessages || layerOpen {
		return 0
	}
	if _, ok := conv.ByID(f.msg); !ok {
		return 0
	}
	return f.msg
}
