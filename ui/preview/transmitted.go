package preview

// Transmitted is the set of kitty pictures the terminal holds. The root
// model keeps one and changes it only in Update, so each picture is sent
// once however often it is drawn, and freed when nothing shows it.
type Transmitted map[uint32]struct{}

// Need returns what to write (with tea.Raw) before the frame shows r: its
// transmit commands the first time, "" afterwards and for pictures that
// are not kitty's.
func (t Transmitted) Need(r Rendered) string {
	if r.ID == 0 || r.Transmit == "" {
		return ""
	}
	if _, ok := t[r.ID]; ok {
		return ""
	}
	t[r.ID] = struct{}{}
	return r.Transmit
}

// Forget returns what to write to free r in the terminal once nothing
// shows it any more, and forgets it; "" when it was never transmitted.
func (t Transmitted) Forget(r Rendered) string {
	if _, ok := t[r.ID]; !ok || r.ID == 0 {
		return ""
	}
	delete(t, r.ID)
	return r.Delete
}
