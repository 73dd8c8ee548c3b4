package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/uictx"
)

// A layer is one overlay over the chat: help, a picker, the setup screen,
// the sessions browser, the file picker, the image form, the tool
// prompts. Its component implements the one contract of the UI's parts
// (uictx.Component: a message in, an action out; drawn into its
// rectangle; its hints) and lives in a small stack; the root routes
// messages to the top layer, draws it, and acts on the action it returns
// in one place (handleResult), whatever package the component is from.
// Adding an overlay is a component plus one line that pushes it.
type layer struct {
	uictx.Component
	// kind names the overlay ("help", "models", …): the app key that
	// opens a kind closes it; tests name it.
	kind string
	// full: the layer takes the whole screen. One that is not is a panel
	// over the transcript; it still takes the whole screen when the
	// screen is too small for a panel.
	full bool
	// stop ends the work the component started (a search, previews)
	// when the layer closes; nil when it starts none.
	stop func()
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

// keysWatcher is a layer that shows the key map, told when the terminal's
// keyboard support changed it.
type keysWatcher interface {
	keysChanged(km keys.Map)
}

// layerStack holds the open layers; the last one is on top and receives
// input. gen grows with every push and pop, so the layout gives a new top
// layer its size even when nothing else changed.
type layerStack struct {
	list []*layer
	gen  int
}

// top is the layer on top (nil: none is open).
func (s *layerStack) top() *layer {
	if len(s.list) == 0 {
		return nil
	}
	return s.list[len(s.list)-1]
}

// topIs is the top layer's component when it is a T.
func topIs[T any](s *layerStack) (T, bool) {
	var zero T
	l := s.top()
	if l == nil {
		return zero, false
	}
	c, ok := l.Component.(T)
	return c, ok
}

// push opens a layer on top of the others.
func (s *layerStack) push(l layer) {
	s.list = append(s.list, &l)
	s.gen++
}

// pop closes the top layer and ends its work.
func (s *layerStack) pop() {
	if n := len(s.list); n > 0 {
		if stop := s.list[n-1].stop; stop != nil {
			stop()
		}
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
	q, ok := topIs[quitOwner](s)
	return ok && q.ownsQuit()
}

// routeLayer hands a message to the top layer and acts on its result.
func (m *Model) routeLayer(msg tea.Msg) tea.Cmd {
	l := m.layers.top()
	if l == nil {
		return nil
	}
	cmd, act := l.Update(msg)
	return tea.Batch(cmd, m.handleResult(act))
}
