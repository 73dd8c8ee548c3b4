package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/ui/transcript"
)

// copyFromReply copies the last reply's Markdown source (n = 0) or its
// n-th fenced code block. What is copied is the reply as the model wrote
// it (the Markdown, not the rendering), with terminal control sequences
// made inert (see copyText). Nothing to copy returns the sentence that
// says so instead.
func copyFromReply(conv *conversation.Conversation, tr *transcript.Transcript, write func(string) error, n int) (tea.Cmd, string) {
	r, ok := lastReplyWithText(conv)
	if !ok {
		return nil, "there is no reply to copy yet"
	}
	if n == 0 {
		return copyText(write, "reply", r.Text), ""
	}
	return copyBlock(tr, write, r.ID, n, "the last reply")
}

// copyBlock copies code block n of message id (called whose), and says
// which label it has on screen.
func copyBlock(tr *transcript.Transcript, write func(string) error, id, n int, whose string) (tea.Cmd, string) {
	code, label, count := tr.MessageCodeBlock(id, n)
	switch {
	case count == 0:
		return nil, whose + " has no code block"
	case label == 0:
		return nil, fmt.Sprintf("%s has only %d code %s", whose, count, plural(count, "block", "blocks"))
	}
	return copyText(write, fmt.Sprintf("code block [%d]", label), code), ""
}

// copyLabelled copies the code block labelled [n] anywhere in the
// transcript (/copy N).
func copyLabelled(tr *transcript.Transcript, write func(string) error, n int) (tea.Cmd, string) {
	code, ok := tr.CodeBlock(n)
	if !ok {
		total := tr.CodeBlocks()
		if total == 0 {
			return nil, "there is no code block in this conversation yet"
		}
		return nil, fmt.Sprintf("there is no code block [%d]; the labels here go from [1] to [%d]", n, total)
	}
	return copyText(write, fmt.Sprintf("code block [%d]", n), code), ""
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

// startNewConversation replaces the conversation with an empty one; a
// message being edited stays in the composer as a new one.
func (m *Model) startNewConversation() tea.Cmd {
	m.armed.newConv = time.Time{}
	m.interruptStream()
	m.openConversation(m.eng.Fresh(), 0)
	if m.comp.editing {
		m.comp.leaveEdit(true)
	}
	return m.notes.show("new conversation", toastOK)
}

// attachedMsg carries what an attaching job read: images or text files
// from a pasted or dropped path, /attach, the image pane, the desktop (a
// screenshot, the clipboard), or why none.
type attachedMsg struct {
	atts []api.Attachment
	// text is the pasted text, inserted as text when it was not an image.
	text string
	// taken is when the newest screenshot of the folder was taken
	// (/attach latest), said with it.
	taken time.Time
	// line is the /attach command as typed: on a failure it goes back
	// into an empty composer. said is what to say besides (files past
	// attach_max_count).
	line string
	said noticeResult
	err  error
}

// attached puts what an attaching job read on the message; a send that
// waited for it goes once the last attachment is read, or stays unsent
// when none could be added.
func (m *Model) attached(msg attachedMsg) tea.Cmd {
	m.work.done()
	if msg.err != nil {
		m.comp.keepLine(msg.line)
	}
	if stopped(msg.err) {
		// esc, or the conversation was left: what was pasted stays.
		return m.notes.say(m.comp.take(msg.text, roomOf(m.opts, &m.pics)))
	}
	if msg.err != nil {
		// Not an image after all (or unreadable): keep the paste as text so
		// nothing the user pasted is lost, and say why it was not attached.
		m.work.arrived(m.eng, true)
		return tea.Batch(m.notes.say(m.comp.take(msg.text, roomOf(m.opts, &m.pics))), m.notes.show(msg.err.Error(), toastWarn))
	}
	added, said := m.comp.attach(msg.atts, roomOf(m.opts, &m.pics))
	ask, said := seeing(m.eng, m.base, added, said)
	cmds := []tea.Cmd{ask, m.notes.say(said), m.notes.say(msg.said)}
	if !msg.taken.IsZero() && len(added) > 0 {
		cmds = append(cmds, m.notes.say(screenshotTaken(added[0], m.now().Sub(msg.taken))))
	}
	if m.work.arrived(m.eng, len(added) == 0) {
		cmds = append(cmds, m.send())
	}
	return tea.Batch(cmds...)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
