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
// input.
type layerStack []layer

func (s layerStack) top() layer {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// pushLayer opens a layer on top of the others.
func (m *Model) pushLayer(l layer) {
	m.layers = append(m.layers, l)
	m.armed.codePrefix = false
	// Force the relayout at the end of the Update: the new top layer needs
	// its size even when the layout's inputs did not change.
	m.screen.layIn = layoutInput{}
}

// popLayer closes the top layer.
func (m *Model) popLayer() {
	if n := len(m.layers); n > 0 {
		m.layers[n-1] = nil
		m.layers = m.layers[:n-1]
	}
	m.screen.layIn = layoutInput{}
}

// layerName is the name of the top layer, or "" when none is open.
func (m *Model) layerName() string {
	if l := m.layers.top(); l != nil {
		return l.name()
	}
	return ""
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

// layerOwnsQuit reports whether the top layer handles the quit keys.
func (m *Model) layerOwnsQuit() bool {
	q, ok := m.layers.top().(quitOwner)
	return ok && q.ownsQuit()
}
