package ui

import (
	"parley/conversation"
	"parley/ui/transcript"
)

// transcriptListener shows the conversation's changes in the transcript:
// the conversation is the one source of truth, and the transcript follows
// its change events instead of being told by every handler.
type transcriptListener struct{ tr *transcript.Transcript }

func (l transcriptListener) OnChange(c conversation.Change) {
	switch c.Kind {
	case conversation.ChangeAppend:
		l.tr.Append(*c.Message)
	case conversation.ChangeDelta:
		l.tr.AppendDelta(c.Message.ID, c.Delta)
	case conversation.ChangeReasoning:
		l.tr.AppendReasoning(c.Message.ID, c.Delta)
	case conversation.ChangeUpdate:
		l.tr.Update(*c.Message)
	case conversation.ChangeRemove:
		l.tr.Remove(c.Removed)
	case conversation.ChangeSwitch:
		// Another branch of the same conversation: the transcript shows
		// its path, reusing what it made for the paths it showed before.
		l.tr.SwitchPath(c.Path)
	case conversation.ChangeExclude:
		l.tr.SetExcluded(c.Turn, c.Message.Excluded)
	}
}

// listen adds a listener of the conversation on screen and of every
// conversation after it (/new, opening a session): the list lives in the
// root, not in one conversation.
func (m *Model) listen(l conversation.Listener) {
	m.listeners = append(m.listeners, l)
	if m.conv != nil {
		m.conv.Listen(l)
	}
}

// conversationOptions are the options of every conversation the chat
// holds: every listener hears it.
func (m *Model) conversationOptions() conversation.Options {
	ls := append([]conversation.Listener(nil), m.listeners...)
	return conversation.Options{Listeners: ls, Now: m.now, SystemPrompt: m.opts.systemPrompt()}
}

// freshConversation is a new, empty conversation with the run's role
// (--role).
func (m *Model) freshConversation() *conversation.Conversation {
	c := conversation.New(m.conversationOptions())
	if m.opts.Role != "" {
		c.SetRole(m.opts.Role)
	}
	return c
}

// newConversation replaces the conversation with an empty one.
func (m *Model) newConversation() {
	m.images.stop(m.conv)
	m.work.renew(m.base, &m.pics)
	m.tr.ForgetPending()
	m.conv = m.freshConversation()
	setHeapFor(0, m.opts.Getenv)
	m.tr.Reset(nil)
	m.stream.lastUsage, m.stream.lastRate, m.stream.trimmed, m.turn.withoutImages = nil, 0, 0, ""
}

// openConversation shows a conversation rebuilt from stored messages.
func (m *Model) openConversation(snap conversation.Snapshot, id string) {
	m.images.stop(m.conv)
	m.work.renew(m.base, &m.pics)
	m.tr.ForgetPending()
	opts := m.conversationOptions()
	opts.ID = id
	if m.opts.SystemPrompt != "" {
		// --system says this run's system prompt, a reopened session's
		// included.
		snap.SystemPrompt = m.opts.SystemPrompt
	}
	m.conv = conversation.Restore(opts, snap)
	setHeapFor(len(snap.Messages), m.opts.Getenv)
	m.tr.ResetSeq(m.conv.Len(), m.conv.PathMessages())
	m.stream.lastUsage, m.stream.lastRate, m.stream.trimmed, m.turn.withoutImages = nil, 0, 0, ""
	m.tr.List().Bottom()
}
