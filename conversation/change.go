package conversation

import "parley/api"

// ChangeKind says what happened to a conversation.
type ChangeKind int

// Kinds of change reported to listeners.
const (
	// ChangeAppend: Message was added at the end of the active path (a user
	// message, or a reply that starts streaming with no text yet). Its
	// Parent is always the path's last message before it: a listener that
	// shows the active path appends it. A new branch (an edit, a
	// regenerated reply) first moves the path back with a ChangeSwitch.
	ChangeAppend ChangeKind = iota
	// ChangeDelta: Delta was appended to the reply in flight. Message carries
	// the reply's ID, Version and whole Text so far (the string is shared,
	// not copied), so a view can either append Delta or re-read Text.
	ChangeDelta
	// ChangeProgress: the reply in flight with its text so far, at most once
	// per Options.ProgressEvery while it streams, so storage can save a
	// partial reply without handling every delta.
	ChangeProgress
	// ChangeUpdate: Message (the reply that was in flight) reached its final
	// state (done, interrupted or failed) with its whole text.
	ChangeUpdate
	// ChangeRemove: the messages with the ids in Removed were dropped from
	// the tree (a reply that failed before any text, made again; an image
	// turn tried again with RemoveLast). Only messages nothing follows
	// are dropped.
	ChangeRemove
	// ChangeTitle: the conversation was renamed with SetTitle.
	ChangeTitle
	// ChangeSystem: the conversation's system prompt changed.
	ChangeSystem
	// ChangeSwitch: the active path changed (SwitchTo, SwitchAlternative,
	// and before the first message of a new branch is appended); Path
	// holds its messages (what Messages() returns) and Leaf its last one.
	// A listener that shows the path shows Path instead. Nothing was added
	// or dropped.
	ChangeSwitch
	// ChangeExclude: a turn was left out of what the model sees, or
	// brought back (SetExcluded). Message is the turn's user message,
	// its Excluded the new value; Turn lists the ids of the turn's
	// messages on the active path (the user message first, empty when it
	// is not on the path), whose Excluded and Version changed.
	ChangeExclude
	// ChangeReasoning: Delta was appended to the reasoning of the reply in
	// flight (not to its Text). Message carries the reply's ID, Version
	// and whole Reasoning so far (shared, not copied), as ChangeDelta
	// does for the text.
	ChangeReasoning
	// ChangeSettings: the conversation's role or parameters changed
	// (SetRole, SetParams); Role and Params hold the new values.
	ChangeSettings
	// ChangeTools: a streaming reply called tools or got a tool's result
	// (Message carries its steps).
	ChangeTools
)

// String names the kind for logs and test failures.
func (k ChangeKind) String() string {
	switch k {
	case ChangeAppend:
		return "append"
	case ChangeDelta:
		return "delta"
	case ChangeProgress:
		return "progress"
	case ChangeUpdate:
		return "update"
	case ChangeRemove:
		return "remove"
	case ChangeTitle:
		return "title"
	case ChangeSystem:
		return "system"
	case ChangeSwitch:
		return "switch"
	case ChangeExclude:
		return "exclude"
	case ChangeReasoning:
		return "reasoning"
	case ChangeSettings:
		return "settings"
	case ChangeTools:
		return "tools"
	}
	return "unknown"
}

// Change is one change of a conversation, with copies of what changed.
// Title, SystemPrompt, Role, Params and Leaf always hold the
// conversation's current values, so a listener that meets a conversation
// for the first time learns them with its first change.
type Change struct {
	Kind           ChangeKind
	ConversationID string
	// Message is a copy of the message concerned (Append, Delta,
	// Reasoning, Progress, Update, Exclude); nil otherwise.
	Message *Message
	// Delta is the text appended (Delta), or the reasoning (Reasoning).
	Delta string
	// Removed lists the ids dropped (Remove only).
	Removed []int
	// Turn lists the ids whose Excluded changed (Exclude only).
	Turn []int
	// Path is a copy of the new active path (Switch only).
	Path []Message
	// OffPath: Message is not on the active path: a reply of a compare
	// streaming beside the one the path ends at (Delta, Reasoning,
	// Progress, Update). A listener that shows the active path skips it;
	// one that stores the tree does not.
	OffPath      bool
	Title        string
	SystemPrompt string
	// Leaf is the id of the active path's last message after the change
	// (0: the conversation is empty).
	Leaf int
	// Role and Params are the conversation's current role and /set
	// parameters, on every change like Title (see Conversation.Role).
	Role   string
	Params api.Params
	// Source identifies the Conversation value that made the change: New
	// and Restore each make a new one. Message ids are that value's own
	// numbers (see FirstOwnID); a store that numbers messages itself, so
	// that two processes appending to one session never take the same
	// number, keeps its mapping per Source.
	Source uint64
	// FirstOwnID is the first id the conversation gave a message itself:
	// smaller ids are those of the snapshot it was restored from (the
	// store's own numbers), ids from FirstOwnID on belong to messages
	// appended since (1 for a conversation made with New).
	FirstOwnID int
}

// Listener hears every change of a conversation, in order, synchronously
// from the goroutine that owns the conversation. OnChange must be cheap and
// must not block (the UI calls it from Update): a listener with slow work,
// such as storage, only enqueues the change. Every listener receives the
// same Change, so none may modify it (Message, Removed) or the conversation
// it listens to.
type Listener interface {
	OnChange(Change)
}
