package transcript

// Idle reports whether the transcript has nothing left to do: no render
// job in flight, no lazy rendering pending, no streaming tail to redraw.
// Tests wait for it before they compare a screen.
func (t *Transcript) Idle() bool {
	return t.jobs.inflight == nil && !t.NeedsTick()
}
