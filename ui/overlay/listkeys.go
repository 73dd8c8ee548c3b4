package overlay

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/uictx"
)

// listKeys matches the keys of lists and dialogs against the live key map
// (so config overrides apply), plus keys that always work in a list whatever
// the config says: the arrows, enter and esc (a user must always be able to
// get out), page and home/end keys.
type listKeys struct {
	m keys.Map
	// filtering: printable keys type into a filter, so a list binding on a
	// printable key (say "k") must not steal them.
	filtering bool
}

func listKeysFor(ctx *uictx.Context, filtering bool) listKeys {
	return listKeys{m: ctx.Keys, filtering: filtering}
}

func (l listKeys) matches(msg tea.KeyPressMsg, b key.Binding, always ...string) bool {
	ks := msg.Keystroke()
	for _, k := range always {
		if ks == k {
			return true
		}
	}
	if !b.Enabled() {
		return false
	}
	for _, k := range b.Keys() {
		if l.filtering && keys.Printable(k) {
			continue
		}
		if k == ks || k == msg.String() {
			return true
		}
	}
	return false
}

func (l listKeys) up(msg tea.KeyPressMsg) bool   { return l.matches(msg, l.m.ListUp, "up") }
func (l listKeys) down(msg tea.KeyPressMsg) bool { return l.matches(msg, l.m.ListDown, "down") }
func (l listKeys) choose(msg tea.KeyPressMsg) bool {
	return l.matches(msg, l.m.Select, "enter")
}
func (l listKeys) cancel(msg tea.KeyPressMsg) bool { return l.matches(msg, l.m.Close, "esc") }
func (l listKeys) pageUp(msg tea.KeyPressMsg) bool {
	return l.matches(msg, key.Binding{}, "pgup")
}
func (l listKeys) pageDown(msg tea.KeyPressMsg) bool {
	return l.matches(msg, key.Binding{}, "pgdown")
}
func (l listKeys) first(msg tea.KeyPressMsg) bool { return l.matches(msg, key.Binding{}, "home") }
func (l listKeys) last(msg tea.KeyPressMsg) bool  { return l.matches(msg, key.Binding{}, "end") }

// hint returns the first key of b for a one-line hint, or fallback when b
// is unbound.
func hint(b key.Binding, fallback string) string {
	if ks := b.Keys(); b.Enabled() && len(ks) > 0 {
		return ks[0]
	}
	return fallback
}

// noticesHow names the way to open the notices pane, where what a dialog
// has too few rows for is read whole.
func noticesHow(ctx *uictx.Context) string {
	if k := hint(ctx.Keys.Notices, ""); k != "" {
		return k + " or /notices"
	}
	return "/notices"
}
