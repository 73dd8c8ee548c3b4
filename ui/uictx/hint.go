package uictx

// Hint is one "key action" pair of a key hint line: what a part of the
// screen offers while it has the keys.
type Hint struct {
	Key, Desc string
}
