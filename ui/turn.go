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
		if c.OffPath {
			// A reply of a compare beside the one on the path: its
			// column shows it, the transcript only the path.
			return
		}
		l.tr.Update(*c.Message)
	case conversation.ChangeRemove:
		l.tr.Remove(c.Removed)
	case conversation.ChangeSwitch:
		// Another branch of the same conversation: the transcript shows
		// its path, reusing what it made for the paths it showed before.
		l.tr.SwitchPath(c.Path)
	case conversation.ChangeExclude:
		l.tr.SetExcluded(c.Turn, c.Message.Excluded)
	case conversation.ChangeTools:
		l.tr.UpdateTools(c.Message.ID, c.Message.Tools)
	}
}

// openConversation shows conv in place of the conversation on screen: a
// fresh one, or one rebuilt from its stored messages (how many: the
// collector is set for a long session). The work of the one left ends
// with it.
func (m *Model) openConversation(conv *conversation.Conversation, stored int) {
	m.work.renew(m.base, &m.pics)
	m.tr.ForgetPending()
	m.eng.Replace(conv)
	setHeapFor(stored, m.opts.Getenv)
	m.tr.ResetSeq(conv.Len(), conv.PathMessages())
	m.tr.List().Bottom()
}
