package keys

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"

	"parley/internal/suggest"
)

// Load returns the default map with the overrides of the config file's
// [keys] table applied (action name -> keys; an empty list unbinds the
// action), and one user-facing sentence per problem found: unknown action
// names, keys that cannot be parsed or that terminals cannot send, and
// conflicts. Problems never stop the app: a bad entry is skipped, and of two
// actions on one key the one set in the config keeps it.
func Load(overrides map[string][]string) (Map, []string) {
	m := Default()
	var problems []string
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	sort.Strings(names)

	set := map[string]bool{} // actions the config set
	for _, name := range names {
		s, ok := specByName(name)
		if !ok {
			problems = append(problems, unknownAction(name))
			continue
		}
		var ks []string
		for _, raw := range overrides[name] {
			k, err := Normalize(raw)
			if err != nil {
				problems = append(problems, fmt.Sprintf("[keys] %s: %v", name, err))
				continue
			}
			if Printable(k) && !s.emptyOnly && s.name != Help && s.ctx&ctxChat != 0 {
				problems = append(problems, fmt.Sprintf("[keys] %s: %q types text in the composer, so it cannot run an action; use a key with ctrl, alt or a function key.", name, raw))
				continue
			}
			if !contains(ks, k) {
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 && len(overrides[name]) > 0 {
			continue // every key was bad: keep the default
		}
		b := s.field(&m)
		b.SetKeys(ks...)
		b.SetHelp(helpKeys(s, ks), s.desc)
		set[name] = true
	}
	problems = append(problems, keepWayOut(&m, set, resolveConflicts(&m, set))...)
	problems = append(problems, composerShadows(m, set)...)
	return m, problems
}

// conflict is one key resolveConflicts took from an action: key went to
// kept, lost no longer has it, and text says so.
type conflict struct {
	key, kept, lost string
	text            string
}

// resolveConflicts removes a key from all but one action of each context
// that shares it: an action set in the config keeps it over a default; of
// two actions set in the config, the first in help order keeps it.
func resolveConflicts(m *Map, set map[string]bool) []conflict {
	var problems []conflict
	for _, ctx := range []context{ctxChat, ctxList} {
		owner := map[string]string{}
		// Config-set actions claim their keys first.
		for pass := 0; pass < 2; pass++ {
			for _, s := range specs {
				if s.ctx&ctx == 0 || set[s.name] != (pass == 0) {
					continue
				}
				b := s.field(m)
				var kept []string
				for _, k := range b.Keys() {
					prev, taken := owner[k]
					if !taken {
						owner[k] = s.name
						kept = append(kept, k)
						continue
					}
					if prev == s.name {
						continue
					}
					c := conflict{key: k, kept: prev, lost: s.name, text: fmt.Sprintf("[keys] %s now runs %s, so %s no longer has it.", k, prev, s.name)}
					if set[s.name] {
						c.text = fmt.Sprintf("[keys] %s is set for both %s and %s; %s keeps it.", k, prev, s.name, prev)
					}
					problems = append(problems, c)
				}
				if len(kept) != len(b.Keys()) {
					b.SetKeys(kept...)
					if len(kept) == 0 {
						b.Unbind()
					} else {
						b.SetHelp(helpKeys(s, kept), s.desc)
					}
				}
			}
		}
	}
	return problems
}

// composerShadows reports config keys that hide one of the composer's own
// editing keys (the action wins, the editing key stops working).
func composerShadows(m Map, set map[string]bool) []string {
	editing := composerKeys()
	var problems []string
	for _, s := range specs {
		if !set[s.name] || s.emptyOnly || s.ctx&ctxChat == 0 {
			continue
		}
		for _, k := range s.field(&m).Keys() {
			if what, ok := editing[k]; ok {
				problems = append(problems, fmt.Sprintf("[keys] %s for %s hides the composer's %q key.", k, s.name, what))
			}
		}
	}
	return problems
}

// composerKeys maps each key of the composer's editing key map to what it
// does. The root disables the composer's own page keys and paste key (its
// paste reads images too) and takes enter.
func composerKeys() map[string]string {
	km := textarea.DefaultKeyMap()
	out := map[string]string{}
	for _, b := range []key.Binding{
		km.CharacterForward, km.CharacterBackward, km.WordForward, km.WordBackward,
		km.LineNext, km.LinePrevious, km.DeleteWordBackward, km.DeleteWordForward,
		km.DeleteAfterCursor, km.DeleteBeforeCursor, km.DeleteCharacterBackward,
		km.DeleteCharacterForward, km.LineStart, km.LineEnd, km.InputBegin,
		km.InputEnd, km.CapitalizeWordForward, km.LowercaseWordForward,
		km.UppercaseWordForward, km.TransposeCharacterBackward, km.SelectCharacterForward,
		km.SelectCharacterBackward, km.SelectWordForward, km.SelectWordBackward,
		km.SelectLineUp, km.SelectLineDown, km.SelectAll, km.CopySelection,
	} {
		for _, k := range b.Keys() {
			out[k] = b.Help().Desc
		}
	}
	return out
}

// unknownAction words the problem of a [keys] name that is no action: the
// help overlay shows what keys do, not the names, so the message offers the
// name meant, or all of them.
func unknownAction(name string) string {
	if near := suggest.Closest(name, Actions()); near != "" {
		return fmt.Sprintf("[keys] %q is not an action parley knows; did you mean %q?", name, near)
	}
	return fmt.Sprintf("[keys] %q is not an action parley knows; the actions are %s.", name, strings.Join(Actions(), ", "))
}

func specByName(name string) (spec, bool) {
	for _, s := range specs {
		if s.name == name {
			return s, true
		}
	}
	return spec{}, false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// modifier order as Bubble Tea prints keystrokes.
var modOrder = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

var modAliases = map[string]string{
	"ctrl": "ctrl", "control": "ctrl",
	"alt": "alt", "opt": "alt", "option": "alt",
	"shift": "shift",
	"meta":  "meta", "hyper": "hyper", "super": "super", "cmd": "super", "win": "super",
}

var keyAliases = map[string]string{
	"escape": "esc", "return": "enter", "ret": "enter", "cr": "enter",
	"pgdn": "pgdown", "pagedown": "pgdown", "page_down": "pgdown",
	"pageup": "pgup", "page_up": "pgup",
	"del": "delete", "ins": "insert", "bs": "backspace", "spacebar": "space", " ": "space",
	"arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
}

var namedKeys = map[string]bool{
	"enter": true, "tab": true, "backspace": true, "esc": true, "space": true,
	"up": true, "down": true, "left": true, "right": true, "begin": true,
	"find": true, "insert": true, "delete": true, "select": true,
	"pgup": true, "pgdown": true, "home": true, "end": true,
}

// legacyClash names keys most terminals send as another key.
var legacyClash = map[string]string{
	"ctrl+i": "tab", "ctrl+m": "enter", "ctrl+h": "backspace", "ctrl+[": "esc",
	"ctrl+@": "ctrl+space",
}

// Normalize turns a key as a user writes it ("Ctrl+O", "shift+ctrl+x",
// "PgDn") into the form Bubble Tea reports ("ctrl+o", "ctrl+shift+x",
// "pgdown"), or explains why it cannot be used.
func Normalize(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", fmt.Errorf("an empty key name is not a key")
	}
	if s == "+" {
		return "+", nil
	}
	var parts []string
	if strings.HasSuffix(s, "++") {
		parts = append(strings.Split(strings.TrimSuffix(s, "++"), "+"), "+")
	} else {
		parts = strings.Split(s, "+")
	}
	base := parts[len(parts)-1]
	mods := map[string]bool{}
	for _, p := range parts[:len(parts)-1] {
		name, ok := modAliases[strings.ToLower(strings.TrimSpace(p))]
		if !ok {
			return "", fmt.Errorf("%q: %q is not a modifier (use ctrl, alt, shift, meta, super)", raw, p)
		}
		mods[name] = true
	}
	if base == "" {
		return "", fmt.Errorf("%q has no key after the modifiers", raw)
	}
	lower := strings.ToLower(base)
	if a, ok := keyAliases[lower]; ok {
		lower = a
	}
	switch {
	case namedKeys[lower]:
		base = lower
	case isFunctionKey(lower):
		base = lower
	case len([]rune(base)) == 1:
		r := []rune(base)[0]
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("%q is a control character, not a key name", raw)
		}
		if mods["ctrl"] || mods["alt"] || mods["meta"] || mods["super"] || mods["hyper"] {
			base = strings.ToLower(base)
		}
		if mods["shift"] && !mods["ctrl"] && !mods["alt"] && !mods["meta"] && !mods["super"] && !mods["hyper"] {
			// A terminal reports shift+a as the text "A".
			if up := strings.ToUpper(base); up != base {
				delete(mods, "shift")
				base = up
			}
		}
	default:
		return "", fmt.Errorf("%q: %q is not a key name Bubble Tea knows (examples: enter, esc, pgup, f2, a)", raw, base)
	}
	var b strings.Builder
	for _, mname := range modOrder {
		if mods[mname] {
			b.WriteString(mname + "+")
		}
	}
	b.WriteString(base)
	k := b.String()
	if same, ok := legacyClash[k]; ok {
		return "", fmt.Errorf("%s arrives as %s in most terminals, so it cannot be told apart; choose another key", k, same)
	}
	return k, nil
}

func isFunctionKey(s string) bool {
	if len(s) < 2 || len(s) > 3 || s[0] != 'f' {
		return false
	}
	n := 0
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 63
}
