package transcript

// ForgetPending forgets the pictures asked for and not made yet: their
// work was stopped (the conversation was left, or a session is opened
// again in full), and they are asked for again by the next rendering that
// shows them.
func (t *Transcript) ForgetPending() {
	p := &t.pics
	for k, st := range p.pics {
		if !st.done {
			delete(p.pics, k)
		}
	}
	p.want = nil
}
