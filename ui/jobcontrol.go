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
	// Stopping is called right before the chat stops the process; false
	// means stopping cannot work here (no job control), and ctrl+z stays
	// an ordinary key, as it would for any program in that terminal.
	Stopping func() bool
}

// suspendKey stops the chat like a terminal's own suspend character: in
// raw mode the terminal sends ctrl+z as a key instead of SIGTSTP.
const suspendKey = "ctrl+z"

// filter runs on Bubble Tea's event loop before Update. It turns ctrl+z
// into a suspend and lets a suspend through only when the process can
// stop: Bubble Tea's suspend releases the terminal, sends SIGTSTP to the
// process group and waits for SIGCONT, which never comes when the stop is
// discarded.
func (jc *JobControl) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == suspendKey && jc.Stopping() {
			return tea.SuspendMsg{}
		}
	case tea.SuspendMsg:
		if !jc.Stopping() {
			return nil
		}
	}
	return msg
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
