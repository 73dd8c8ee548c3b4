package transcript

// SetExcluded marks the messages ids (a turn) as left out of what the model
// sees, or brings them back: they are drawn again with the mark.
func (t *Transcript) SetExcluded(ids []int, on bool) {
	for _, id := range ids {
		i, ok := t.index[id]
		if !ok {
			continue
		}
		msg := t.items[i].msg
		if msg.Excluded == on {
			continue
		}
		msg.Excluded = on
		msg.Version++
		t.Update(msg)
	}
}
