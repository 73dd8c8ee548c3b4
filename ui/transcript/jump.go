package transcript

// ScrollTo shows the message with the given id at the top of the window (a
// search hit opened from the session browser). An unknown id changes
// nothing.
func (l *List) ScrollTo(id int) {
	i, ok := l.pos(id)
	if !ok {
		return
	}
	l.render(i)
	l.setTop(l.hs.prefix(i))
}
