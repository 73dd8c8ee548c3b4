package ui

import (
	"sync"

	tea "charm.land/bubbletea/v2"
)

// JobControl connects the chat to the process's one signal owner (main):
// Bubble Tea's own signal handler is off, and while the chat runs the owner
// also catches SIGTSTP and SIGCONT and passes them on here.
type JobControl struct {
	// Stops delivers a SIGTSTP sent from outside: the chat stops as on
	// ctrl+z.
	Stops <-chan struct{}
	// Continued delivers SIGCONT: the chat redraws the whole screen (a
	// stop the chat did not see coming, SIGSTOP, leaves its screen to
	// whatever ran meanwhile).
	Continued <-chan struct{}
	// CanStop reports whether stopping can work here (a shell with job
	// control would continue the process). When it cannot, ctrl+z stays an
	// ordinary key, as it is for any program in that terminal.
	CanStop func() bool
	// Stop stops the process and returns once it continues.
	Stop func()
	// Released, when set, is called once the chat has ended and Bubble
	// Tea has given the terminal back, before the history is written
	// (which can wait for a database another program holds): a forced
	// exit from then on must leave the shell's screen alone.
	Released func()
}

// released says that the chat has given the terminal back.
func (jc *JobControl) released() {
	if jc != nil && jc.Released != nil {
		jc.Released()
	}
}

// suspendKey stops the chat like a terminal's own suspend character: in
// raw mode the terminal sends ctrl+z as a key instead of SIGTSTP.
const suspendKey = "ctrl+z"

// filter runs on Bubble Tea's event loop before Update. ctrl+z, a SIGTSTP
// from outside and tea.Suspend all stop the process here, through the
// signal owner, instead of through Bubble Tea's suspend: that one re-raises
// SIGTSTP, which a Go program that has caught SIGTSTP once can never act
// on again, and would then wait for a SIGCONT that never comes.
func (jc *JobControl) filter(p *tea.Program, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == suspendKey && jc.CanStop() {
			return jc.suspend(p)
		}
	case tea.SuspendMsg:
		if !jc.CanStop() {
			return nil
		}
		return jc.suspend(p)
	}
	return msg
}

// suspend gives the terminal back to the shell (normal screen, no mouse
// or keyboard protocol, cooked mode), stops the process, and on continue
// takes the terminal again. Its result, handled by Bubble Tea before the
// model sees it, redraws the whole screen: the shell wrote over it.
func (jc *JobControl) suspend(p *tea.Program) tea.Msg {
	if err := p.ReleaseTerminal(); err == nil {
		jc.Stop()
	}
	// Taken back even when releasing failed half-way: the chat goes on.
	// (Upstream's renderer stopped its ticker a moment after
	// ReleaseTerminal returned, so a stop continued at once left the
	// screen frozen; parley's copy stops its renderer before
	// ReleaseTerminal returns.)
	_ = p.RestoreTerminal()
	return tea.ClearScreen()
}

// forward passes the owner's SIGTSTP and SIGCONT to the program until
// stop is called; stop returns once forwarding has ended.
func (jc *JobControl) forward(p *tea.Program) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			// Send returns at once when the program has ended.
			select {
			case <-done:
				return
			case <-jc.Stops:
				p.Send(tea.SuspendMsg{})
			case <-jc.Continued:
				p.Send(tea.ClearScreen())
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
