package slash

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// matchList reports whether the press triggers b, ignoring b's printable
// keys: while the list is open, text typed goes to the composer, so a list
// binding on "k" must not steal it.
func matchList(msg tea.KeyPressMsg, b key.Binding) bool {
	if !b.Enabled() {
		return false
	}
	s, ks := msg.String(), msg.Keystroke()
	for _, k := range b.Keys() {
		if keys.Printable(k) {
			continue
		}
		if k == s || k == ks {
			return true
		}
	}
	return false
}
