package ui

import (
	"parley/api"
	"parley/conversation"
)

// Every change of the conversation goes through one of these helpers, which
// make the change and then tell the transcript, so the two never drift.

func (m *Model) addUser(text string, atts []api.Attachment) (int, error) {
	id, err := m.conv.AddUser(text, atts)
	if id != 0 {
		if msg, ok := m.conv.ByID(id); ok {
			m.tr.Append(msg)
		}
	}
	return id, err
}

// replaceLastUser swaps the last user message (and drops its reply). When
// it was the first message, the conversation's title follows the edit
// (the conversation sees to that).
func (m *Model) replaceLastUser(text string, atts []api.Attachment) (int, error) {
	removed := m.idsFromLastUser()
	id, err := m.conv.ReplaceLastUser(text, atts)
	if id == 0 && err != nil {
		return 0, err
	}
	m.tr.Remove(removed)
	if msg, ok := m.conv.ByID(id); ok {
		m.tr.Append(msg)
	}
	return id, err
}

func (m *Model) startReply(model string) (int, error) {
	id, err := m.conv.StartReply(model)
	if id != 0 {
		if msg, ok := m.conv.ByID(id); ok {
			m.tr.Append(msg)
		}
	}
	return id, err
}

func (m *Model) appendDelta(id int, text string) {
	if m.conv.AppendDelta(id, text) {
		m.tr.AppendDelta(id, text)
	}
}

func (m *Model) finishReply(id int, reason string, usage *api.Usage) error {
	err := m.conv.Finish(id, reason, usage)
	m.syncMessage(id)
	return err
}

func (m *Model) interruptReply(id int) error {
	err := m.conv.Interrupt(id)
	m.syncMessage(id)
	return err
}

func (m *Model) failReply(id int, message string) error {
	err := m.conv.Fail(id, message)
	m.syncMessage(id)
	return err
}

// prepareRetry drops the last reply so the last user message can be
// answered again.
func (m *Model) prepareRetry() (conversation.Message, error) {
	var removed []int
	if u, ok := m.conv.LastUser(); ok {
		for _, msg := range m.conv.Messages() {
			if msg.ID > u.ID {
				removed = append(removed, msg.ID)
			}
		}
	}
	u, err := m.conv.PrepareRetry()
	if err != nil && u.ID == 0 {
		return u, err
	}
	if len(removed) > 0 {
		m.tr.Remove(removed)
	}
	return u, err
}

// newConversation replaces the conversation with an empty one.
func (m *Model) newConversation() {
	m.conv = conversation.New(conversation.Options{Recorder: m.opts.Recorder, Now: m.now})
	m.tr.Reset(nil)
}

func (m *Model) syncMessage(id int) {
	if msg, ok := m.conv.ByID(id); ok {
		m.tr.Update(msg)
	}
}

// idsFromLastUser lists the last user message and everything after it.
func (m *Model) idsFromLastUser() []int {
	u, ok := m.conv.LastUser()
	if !ok {
		return nil
	}
	var ids []int
	for _, msg := range m.conv.Messages() {
		if msg.ID >= u.ID {
			ids = append(ids, msg.ID)
		}
	}
	return ids
}
