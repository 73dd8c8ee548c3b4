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

// newConversation replaces the conversation with an empty one.
func (m *Model) newConversation() {
	m.work.renew(m.base, &m.pics)
	m.tr.ForgetPending()
	m.eng.Replace(m.eng.Fresh())
	setHeapFor(0, m.opts.Getenv)
	m.tr.Reset(nil)
}

// openConversation shows a conversation rebuilt from stored messages.
func (m *Model) openConversation(snap conversation.Snapshot, id string) {
	m.work.renew(m.base, &m.pics)
	m.tr.ForgetPending()
	m.eng.Replace(m.eng.Restore(id, snap))
	setHeapFor(len(snap.Messages), m.opts.Getenv)
	m.tr.ResetSeq(m.eng.Conv().Len(), m.eng.Conv().PathMessages())
	m.tr.List().Bottom()
}
