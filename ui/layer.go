package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/uictx"
)

// A layer is one overlay over the chat: help, a picker, the setup screen,
// the sessions browser, the file picker, the image form. Every overlay
// implements this one interface and lives in a small stack; the root routes
// messages to the top layer, draws it, and acts on the result it returns in
// one place (handleResult). Adding an overlay is one file with a type
// implementing layer, plus one line that pushes it.
type layer interface {
	// name identifies the layer kind ("help", "models", …) for tests.
	name() string
	// full reports whether the layer takes the whole screen. A layer that
	// is not full is a panel over the transcript; it still takes the whole
	// screen when the screen is too small for a panel.
	full() bool
	// setSize hands the layer its area.
	setSize(w, h int)
	// update handles a message routed to the layer. The result, when not
	// nil, is data the root acts on right after (see results.go): close
	// the layer, use a model, open a session, …
	update(msg tea.Msg) (tea.Cmd, result)
	// draw returns the layer's box and where it goes in its area.
	draw() (box string, x, y int)
	// hints lists the keys that matter while the layer is open.
	hints() []uictx.Hint
}

// quitOwner is a layer that handles the quit keys itself (the setup screen
// turns them into its own result instead of the chat's double press).
type quitOwner interface {
	ownsQuit() bool
}

// keyBinder is a layer that says which keys it uses: an app key it does
// not use (f4, ctrl+l, …) closes the layers and acts as in the chat. A
// layer without it uses every key but the quit keys.
type keyBinder interface {
	binds(msg tea.KeyPressMsg) bool
}

// layerStack holds the open layers; the last one is on top and receives
// input. gen grows with every push and pop, so the layout gives a new top
// layer its size even when nothing else changed.
type layerStack struct {
	list []layer
	gen  int
}

func (s *layerStack) top() layer {
	if len(s.list) == 0 {
		return nil
	}
	return s.list[len(s.list)-1]
}

// push opens a layer on top of the others.
func (s *layerStack) push(l layer) {
	s.list = append(s.list, l)
	s.gen++
}

// pop closes the top layer.
func (s *layerStack) pop() {
	if n := len(s.list); n > 0 {
		s.list[n-1] = nil
		s.list = s.list[:n-1]
	}
	s.gen++
}

// closeAll closes every layer.
func (s *layerStack) closeAll() {
	for s.top() != nil {
		s.pop()
	}
}

// ownsQuit reports whether the top layer handles the quit keys.
func (s *layerStack) ownsQuit() bool {
	q, ok := s.top().(quitOwner)
	return ok && q.ownsQuit()
}

// routeLayer hands a message to the top layer and acts on its result.
func (m *Model) routeLayer(msg tea.Msg) tea.Cmd {
	l := m.layers.top()
	if l == nil {
		return nil
	}
	cmd, res := l.update(msg)
	return tea.Batch(cmd, m.handleResult(res))
}
