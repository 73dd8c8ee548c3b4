package imagepane

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// bindsKey reports whether handleKey uses the key (see Binds).
func (p *Pane) bindsKey(msg tea.KeyPressMsg) bool {
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
