package conversation

// ListenerFunc adapts a function to a Listener.
type ListenerFunc func(Change)

// OnChange calls f.
func (f ListenerFunc) OnChange(c Change) { f(c) }
