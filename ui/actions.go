package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/termsafe"
	"parley/ui/mdstream"
)

// copyReply copies the last reply's Markdown source. What is copied is the
// reply as the model wrote it (the Markdown, not the rendering), with
// terminal control sequences made inert (see copyText).
func (m *Model) copyReply() tea.Cmd {
	r, ok := lastReplyWithText(m.conv)
	if !ok {
		return m.notify("there is no reply to copy yet", toastInfo)
	}
	return copyText(m.opts.clipboardWrite(m.desktop, m.base), "reply", r.Text)
}

// copyCode copies the n-th fenced code block of the last reply.
func (m *Model) copyCode(n int) tea.Cmd {
	r, ok := lastReplyWithText(m.conv)
	if !ok {
		return m.notify("there is no reply to copy from yet", toastInfo)
	}
	// The numbering the transcript's labels show ([n] above each block).
	blocks := mdstream.CodeBlocks(termsafe.Markdown(r.Text))
	switch {
	case len(blocks) == 0:
		return m.notify("the last reply has no code block", toastInfo)
	case n > len(blocks):
		return m.notify(fmt.Sprintf("the last reply has only %d code %s", len(blocks), plural(len(blocks), "block", "blocks")), toastInfo)
	}
	return copyText(m.opts.clipboardWrite(m.desktop, m.base), fmt.Sprintf("code block %d", n), blocks[n-1])
}

// lastReplyWithText is the last reply that has text: after a failed or
// stopped turn without any, the one before it is still there to copy.
func lastReplyWithText(conv *conversation.Conversation) (conversation.Message, bool) {
	for i := conv.Len() - 1; i >= 0; i-- {
		if r := conv.At(i); r.Role == api.RoleAssistant && r.Text != "" {
			return r, true
		}
	}
	return conversation.Message{}, false
}

// newConversationKey starts a new conversation. With history on screen the
// first press asks for a second one, so a stray key loses nothing.
func (m *Model) newConversationKey() tea.Cmd {
	if m.conv.Len() == 0 {
		return nil
	}
	now := m.now()
	if m.armed.newConv.IsZero() || now.Sub(m.armed.newConv) > quitWindow {
		m.armed.newConv = now
		return m.notify(fmt.Sprintf("press %s again to start a new conversation", firstKey(m.keyMap().NewConversation, "ctrl+l")), toastInfo)
	}
	return m.startNewConversation()
}

// startNewConversation replaces the conversation with an empty one; a
// message being edited stays in the composer as a new one.
func (m *Model) startNewConversation() tea.Cmd {
	m.armed.newConv = time.Time{}
	m.interruptStream()
	m.newConversation()
	if m.comp.editing {
		m.comp.leaveEdit(true)
	}
	return m.notify("new conversation", toastOK)
}

// editorDone puts the editor's text into the composer.
func (m *Model) editorDone(msg editorDoneMsg) tea.Cmd {
	if msg.err != nil {
		return m.notify(msg.err.Error(), toastErr)
	}
	m.comp.setValue(msg.text)
	return nil
}

// attachedMsg carries images attached from a pasted or dropped path.
type attachedMsg struct {
	atts []api.Attachment
	// text is the pasted text, inserted as text when it was not an image.
	text string
	err  error
}

func (m *Model) attached(msg attachedMsg) tea.Cmd {
	m.work.done()
	if stopped(msg.err) {
		// esc, or the conversation was left: what was pasted stays.
		m.comp.insert(msg.text)
		return nil
	}
	if msg.err != nil {
		// Not an image after all (or unreadable): keep the paste as text so
		// nothing the user pasted is lost, and say why it was not attached.
		m.comp.insert(msg.text)
		return m.notify(msg.err.Error(), toastWarn)
	}
	return m.addAttachments(msg.atts)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
