package themes

import (
	"strings"
)

// Set is the list of themes a user can choose from: the built-ins, then the
// user's themes. It is immutable once built.
//
// A user theme with the name of a built-in replaces that built-in in place
// (same position in the list), so a file with name = "dark" and
// base = "dark" adjusts the dark theme, and "auto" then resolves to the
// adjusted one. Names are matched case-insensitively.
type Set struct {
	themes []Theme
}

// NewSet returns the built-ins followed by the given user themes. If two
// user themes share a name, the first wins. Building the set registers the
// chroma style of every theme, and of its 16-colour form (ForProfile), so
// that renders started later never write chroma's registry (see
// RegisterChroma).
func NewSet(user ...Theme) *Set {
	all := Builtins()
	for _, u := range user {
		if i := indexOf(all, u.Name); i >= 0 {
			if all[i].Source == "builtin" {
				all[i] = u
			}
			continue
		}
		all = append(all, u)
	}
	for _, t := range all {
		RegisterChroma(t.Syntax)
		RegisterChroma(t.ansi16().Syntax)
	}
	return &Set{themes: all}
}

// Load is NewSet of the themes LoadDir finds in dir (the UI passes
// $XDG_CONFIG_HOME/parley/themes), with LoadDir's warnings.
func Load(dir string) (*Set, []error) {
	user, errs := LoadDir(dir)
	return NewSet(user...), errs
}

func indexOf(ts []Theme, name string) int {
	for i, t := range ts {
		if strings.EqualFold(t.Name, name) {
			return i
		}
	}
	return -1
}

// Names returns the theme names in list order (built-ins first). "auto" is
// not among them: it is a choice, not a theme; pickers add it themselves.
func (s *Set) Names() []string {
	names := make([]string, len(s.themes))
	for i, t := range s.themes {
		names[i] = t.Name
	}
	return names
}

// Themes returns a copy of the themes in list order.
func (s *Set) Themes() []Theme {
	return append([]Theme(nil), s.themes...)
}

// Get returns the theme with the given name (case-insensitive). "auto" is
// not a theme: use Resolve.
func (s *Set) Get(name string) (Theme, bool) {
	if i := indexOf(s.themes, strings.TrimSpace(name)); i >= 0 {
		return s.themes[i], true
	}
	return Theme{}, false
}

// Resolve returns the theme to use for a configured name: "auto" (or "")
// gives dark or light according to darkBackground (the UI learns it from
// tea.RequestBackgroundColor; before the answer arrives, pass true). An
// unknown name also resolves like "auto"; check it with Get first to warn
// the user.
func (s *Set) Resolve(name string, darkBackground bool) Theme {
	name = strings.TrimSpace(name)
	if name != "" && !strings.EqualFold(name, Auto) {
		if t, ok := s.Get(name); ok {
			return t
		}
	}
	if darkBackground {
		t, _ := s.Get(Dark)
		return t
	}
	t, _ := s.Get(Light)
	return t
}
