package transcript

import "parley/ui/cells"

// foreignRoleWidth bounds the cells a hand-written role takes on the
// label line; a role longer than this is no role parley knows anyway.
const foreignRoleWidth = 24

// foreignLabel is the label line of a message whose role parley never
// writes (conversation.Message.Foreign): it names the role as stored and
// says the message is not sent, so nobody reads it as the model's reply.
func foreignLabel(role string) string {
	return "⚠ a “" + cells.Truncate(cells.OneLine(role), foreignRoleWidth) + "” message from the store, not written by parley: shown, never sent"
}
