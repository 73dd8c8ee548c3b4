package conversation

import "parley/api"

// AddReplyImages puts the images a model sent with its reply (see
// api.ReplyImage) on the reply in flight, as saved (Name is the file's
// path, or "image N" when it was not saved to a file). They are shown and
// stored with the reply, and never sent back to the model (BuildRequest
// sends a reply's text alone). The end of the reply reports them to the
// listeners with it; false when the reply is not in flight.
func (c *Conversation) AddReplyImages(t *Turn, images []api.Attachment) bool {
	n := c.tree.node(t.ReplyID)
	if n == nil || n.msg.State != StateStreaming || n.msg.Role != api.RoleAssistant {
		return false
	}
	if len(images) == 0 {
		return true
	}
	n.edit(func(m *Message) {
		m.Attachments = append(append([]api.Attachment(nil), m.Attachments...), images...)
		m.Version++
	})
	return true
}
