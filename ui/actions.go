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

// copyFromReply copies the last reply's Markdown source (n = 0) or its
// n-th fenced code block, numbered as the transcript's labels show them.
// What is copied is the reply as the model wrote it (the Markdown, not the
// rendering), with terminal control sequences made inert (see copyText).
// Nothing to copy returns the sentence that says so instead.
func copyFromReply(conv *conversation.Conversation, write func(string) error, n int) (tea.Cmd, string) {
	r, ok := lastReplyWithText(conv)
	if !ok {
		return nil, "there is no reply to copy yet"
	}
	if n == 0 {
		return copyText(write, "reply", r.Text), ""
	}
	return copyBlock(write, r.Text, n, "the last reply")
}

// copyBlock copies code block n of text (a message, called whose).
func copyBlock(write func(string) error, text string, n int, whose string) (tea.Cmd, string) {
	blocks := mdstream.CodeBlocks(termsafe.Markdown(text))
	switch {
	case len(blocks) == 0:
		return nil, whose + " has no code block"
	case n > len(blocks):
		return nil, fmt.Sprintf("%s has only %d code %s", whose, len(blocks), plural(len(blocks), "block", "blocks"))
	}
	return copyText(write, fmt.Sprintf("code block %d", n), blocks[n-1]), ""
}

// copied is the command of a copy, or the notice saying why there was
// nothing to copy.
func (m *Model) copied(cmd tea.Cmd, why string) tea.Cmd {
	if why != "" {
		return m.notify(why, toastInfo)
	}
	return cmd
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
		return m.notify(fmt.Sprintf("press %s again to start a new conversation", firstKey(m.ctx.Keys.NewConversation, "ctrl+l")), toastInfo)
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
