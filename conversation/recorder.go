package conversation

// ChangeKind says what happened to a conversation.
type ChangeKind int

// Kinds of change reported to a Recorder.
const (
	// ChangeAppend: Message was added at the end.
	ChangeAppend ChangeKind = iota
	// ChangeUpdate: Message (the reply that was in flight) reached its final
	// state; its text is complete as far as it got.
	ChangeUpdate
	// ChangeRemove: the messages with the ids in Removed were dropped (retry,
	// edit and resend).
	ChangeRemove
	// ChangeTitle: the conversation was renamed.
	ChangeTitle
)

// Change is one change of a conversation, with copies of what changed.
type Change struct {
	Kind           ChangeKind
	ConversationID string
	Title          string
	Message        *Message
	Removed        []int
}

// Recorder receives every change of a conversation, in order, from the
// goroutine that owns it. Durable storage implements it. An error is handed
// back to the caller of the change; the change itself stays applied.
type Recorder interface {
	Record(Change) error
}

// NopRecorder records nothing.
type NopRecorder struct{}

// Record does nothing.
func (NopRecorder) Record(Change) error { return nil }

// RecorderFunc adapts a function to a Recorder.
type RecorderFunc func(Change) error

// Record calls f.
func (f RecorderFunc) Record(c Change) error { return f(c) }
