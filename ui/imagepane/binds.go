package imagepane

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// Binds reports whether HandleKey uses the key. While the save prompt is
// open it uses every key; otherwise only the keys that move the selection,
// the action letters and esc. The chat gives any other key (a printable
// character, "/", enter) back to the composer, with the focus.
func (p *Pane) Binds(msg tea.KeyPressMsg) bool {
	if p.prompt != nil {
		return true
	}
	km := &p.ctx.Keys
	if keys.Matches(msg, km.Close) || keys.Matches(msg, km.ListUp) || keys.Matches(msg, km.ListDown) {
		return true
	}
	switch msg.Keystroke() {
	case "esc", "up", "down", "pgup", "pgdown", "home", "end":
		return true
	}
	switch msg.String() {
	case "k", "j", "g", "G", "a", "o", "c", "y", "s", "e":
		return true
	}
	return false
}
