package transcript

// ScrollTo shows the message with the given id at the top of the window (a
// search hit opened from the session browser). An unknown id changes
// nothing.
func (t *Transcript) ScrollTo(id int) {
	i, ok := t.index[id]
	if !ok {
		return
	}
	t.render(i)
	t.setTop(t.hs.prefix(i))
}
