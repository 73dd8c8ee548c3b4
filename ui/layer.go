package ui

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// A layer is one overlay over the chat: help, a picker, the setup screen.
// Every overlay implements this one interface and lives in a small stack;
// the root routes messages to the top layer, draws it, and applies what it
// asks for in one place (applyEffect). Adding an overlay is one file with a
// type implementing layer, plus one line that pushes it.
type layer interface {
	// name identifies the layer kind ("help", "models", …) for tests and
	// for the hint line.
	name() string
	// full reports whether the layer takes the whole screen. A layer that
	// is not full is a panel over the transcript; it still takes the whole
	// screen when the screen is too small for a panel.
	full() bool
	// setSize hands the layer its area.
	setSize(w, h int)
	// update handles a message routed to the layer. The effect, when not
	// nil, is applied by the root right after (close the layer, use a
	// model, preview a theme, …).
	update(msg tea.Msg) (tea.Cmd, effect)
	// draw returns the layer's box and where it goes in its area.
	draw() (box string, x, y int)
	// hints lists the keys that matter while the layer is open.
	hints(km *keys.Map) []hintItem
}

// quitOwner is a layer that handles the quit keys itself (the setup screen
// turns them into its own result instead of the chat's double press).
type quitOwner interface {
	ownsQuit() bool
}

// effect is what a layer asks of the root. It runs inside Update, so it may
// change the model; it is the only way a layer reaches the root.
type effect func(m *Model) tea.Cmd

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
	m.layersChanged()
}

// popLayer closes the top layer.
func (m *Model) popLayer() {
	if n := len(m.layers); n > 0 {
		m.layers[n-1] = nil
		m.layers = m.layers[:n-1]
	}
	m.layersChanged()
}

// layersChanged moves the focus between the composer and the layers and
// re-lays the screen around them.
func (m *Model) layersChanged() {
	if m.layers.top() == nil {
		m.comp.ta.Focus()
	} else {
		m.comp.ta.Blur()
	}
	m.codePrefix = false
	// Force the relayout at the end of the Update: the new top layer needs
	// its size even when the layout's inputs did not change.
	m.layIn = layoutInput{}
}

// layerName is the name of the top layer, or "" when none is open.
func (m *Model) layerName() string {
	if l := m.layers.top(); l != nil {
		return l.name()
	}
	return ""
}

// routeLayer hands a message to the top layer and applies its effect.
func (m *Model) routeLayer(msg tea.Msg) tea.Cmd {
	l := m.layers.top()
	if l == nil {
		return nil
	}
	cmd, eff := l.update(msg)
	return tea.Batch(cmd, m.applyEffect(eff))
}

// applyEffect is the one place a layer's result changes the model.
func (m *Model) applyEffect(e effect) tea.Cmd {
	if e == nil {
		return nil
	}
	return e(m)
}

// closeTop is the effect of a layer that only closes.
func closeTop(m *Model) tea.Cmd {
	m.popLayer()
	return nil
}

// layerOwnsQuit reports whether the top layer handles the quit keys.
func (m *Model) layerOwnsQuit() bool {
	q, ok := m.layers.top().(quitOwner)
	return ok && q.ownsQuit()
}
