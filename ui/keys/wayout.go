package keys

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
)

// wayOut are the actions that leave a mode: cancel in the chat (stop a
// reply, leave edit mode, dismiss the start-up banner and notices) and
// close in lists and dialogs. A [keys] table that leaves either with no
// key is refused for them, not obeyed: with quit = ["esc"] esc quit
// instead (a draft lost) and no key closed a picker. The map stays the
// one truth the hints read, so a hint never names a key that does
// something else, which a hidden esc kept for overlays beside a map that
// gives esc to quit would do.
var wayOut = map[string]string{
	Cancel: "stops a reply, leaves edit mode and dismisses notices",
	Close:  "closes lists and dialogs",
}

// keepWayOut gives each wayOut action left with no key its default keys
// back, taking them from the actions that had them (an action left with
// none gets its own defaults that are free), and says so. set are the
// actions the config set: one set to no key at all is told it keeps its
// keys (an action that only lost its key to another needs no sentence of
// its own; that other's says it).
// conflicts are resolveConflicts' findings: those about a key given back
// here are dropped, as they no longer say what happened.
func keepWayOut(m *Map, set map[string]bool, conflicts []conflict) []string {
	def := Default()
	var problems []string
	for _, s := range specs {
		what, ok := wayOut[s.name]
		if !ok || len(s.field(m).Keys()) > 0 {
			continue
		}
		ks := s.field(&def).Keys()
		took := false
		for _, o := range specs {
			if o.name == s.name || o.ctx&s.ctx == 0 {
				continue
			}
			b := o.field(m)
			kept := without(b.Keys(), ks)
			if len(kept) == len(b.Keys()) {
				continue
			}
			took = true
			tail := ""
			if len(kept) == 0 {
				kept = freeKeys(m, o, without(o.field(&def).Keys(), ks))
				if len(kept) > 0 {
					tail = fmt.Sprintf(" (%s keeps %s)", o.name, strings.Join(kept, "/"))
				}
			}
			setKeys(o, b, kept)
			problems = append(problems, fmt.Sprintf("[keys] %s cannot have %s: %s is the only key left that %s, so it stays %s's; give %s another key first%s.", o.name, strings.Join(ks, "/"), strings.Join(ks, "/"), what, s.name, s.name, tail))
		}
		if !took && set[s.name] {
			problems = append(problems, fmt.Sprintf("[keys] %s cannot be left without a key: it %s, so it keeps %s.", s.name, what, strings.Join(ks, "/")))
		}
		setKeys(s, s.field(m), ks)
		conflicts = dropConflicts(conflicts, s.name, ks)
	}
	sentences := make([]string, 0, len(conflicts)+len(problems))
	for _, c := range conflicts {
		sentences = append(sentences, c.text)
	}
	return append(sentences, problems...)
}

// dropConflicts is conflicts less those about one of ks between name and
// another action ("esc now runs quit, so cancel no longer has it", "esc
// is set for both quit and close; quit keeps it"): name has it back.
func dropConflicts(conflicts []conflict, name string, ks []string) []conflict {
	var out []conflict
	for _, c := range conflicts {
		if !contains(ks, c.key) || (c.kept != name && c.lost != name) {
			out = append(out, c)
		}
	}
	return out
}

// freeKeys are the keys of ks no action of o's contexts has in m.
func freeKeys(m *Map, o spec, ks []string) []string {
	var free []string
	for _, k := range ks {
		taken := false
		for _, s := range specs {
			if s.ctx&o.ctx != 0 && contains(s.field(m).Keys(), k) {
				taken = true
			}
		}
		if !taken {
			free = append(free, k)
		}
	}
	return free
}

// without is ks less the keys in drop.
func without(ks, drop []string) []string {
	var out []string
	for _, k := range ks {
		if !contains(drop, k) {
			out = append(out, k)
		}
	}
	return out
}

// setKeys binds b, the binding of s, to ks, none unbinding it.
func setKeys(s spec, b *key.Binding, ks []string) {
	if len(ks) == 0 {
		b.Unbind()
		return
	}
	b.SetKeys(ks...)
	b.SetHelp(helpKeys(s, ks), s.desc)
	b.SetEnabled(true)
}
