package api

// Buffered reports whether the next Recv has data to work on without
// reading the network: events decoded ahead, or bytes of the event stream
// already read and not parsed yet. A reader that wants to gather deltas
// (the chat, which shows text once a frame) pauses only when this is false,
// so a gateway that sends faster than it is read is never slowed down.
func (s *Stream) Buffered() bool {
	if len(s.pending) > 0 || s.pendingErr != nil || s.err != nil {
		return true
	}
	return s.sse != nil && s.sse.r < s.sse.w
}
