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
// in one place (handleResult), by its type. Every layer's component is of
// a package of its own and reports that package's types; adding an
// overlay is a component, one line that pushes it and a case in
// handleResult for its result.
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

// Two optional methods of a layer's component tell the root how to treat
// it. They are methods of the component, not fields of layer, because
// they are the component's own knowledge (which keys it takes, whether it
// shows the key map), which may follow its state; layer's fields are what
// the root decides (where it goes, what ends its work).

// keyBinder is a component that says which keys it uses: an app key it
// does not use (f4, ctrl+l, …) closes the layers and acts as in the chat.
// A component without it uses the keys that type text. The setup screen
// and the tool prompt take every key, the quit keys too.
type keyBinder interface {
	Binds(msg tea.KeyPressMsg) bool
}

// keysWatcher is a component that shows the key map, told when the
// terminal's keyboard support changed it.
type keysWatcher interface {
	KeysChanged(km keys.Map)
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

// routeLayer hands a message to the top layer and acts on its result.
func (m *Model) routeLayer(msg tea.Msg) tea.Cmd {
	l := m.layers.top()
	if l == nil {
		return nil
	}
	cmd, act := l.Update(msg)
	return tea.Batch(cmd, m.handleResult(act))
}
