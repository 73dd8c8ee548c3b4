package ui

import (
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/config"
	"parley/internal/suggest"
	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// loadThemes reads the user's theme files ($XDG_CONFIG_HOME/parley/themes)
// and returns one problem per bad file (the file is skipped), and one for
// a configured theme that does not exist (auto is used).
func (t *terminal) loadThemes(env config.Env, km *keys.Map) []string {
	dir := ""
	if d := config.Dir(env); d != "" {
		dir = filepath.Join(d, "themes")
	}
	set, errs := themes.NewSet(), []error(nil)
	if dir != "" {
		set, errs = themes.Load(dir)
	}
	t.themes = set
	var problems []string
	for _, err := range errs {
		// Name files relative to the themes directory: the full path would
		// push the problem itself off the line.
		problems = append(problems, strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	name := strings.TrimSpace(t.themeName)
	if name == "" {
		t.themeName = themes.Auto
	} else if !strings.EqualFold(name, themes.Auto) {
		if _, ok := set.Get(name); !ok {
			near, choose := themeHelp(name, set, km)
			problems = append(problems, "theme "+strconv.Quote(name)+" does not exist ("+near+"), so auto is used: "+choose)
			t.themeName = themes.Auto
		}
	}
	return problems
}

// themeHelp says, for a theme name that is none of the themes, the names
// nearest to it, and how to choose one: the theme picker's key of the live
// key map, or /theme NAME.
func themeHelp(name string, set *themes.Set, km *keys.Map) (near, choose string) {
	names := append([]string{themes.Auto}, set.Names()...)
	typed := strings.ToLower(strings.TrimSpace(name))
	near = "the nearest are " + joinAnd(suggest.Nearest(typed, names, 3))
	if c := suggest.Closest(typed, names); c != "" {
		near = "did you mean " + c + "?"
	}
	choose = "/theme NAME chooses one"
	if k := keyOf(km.ThemePicker); k != "" {
		choose = k + " opens the theme picker, /theme NAME chooses one"
	}
	return near, choose
}

// joinAnd joins names as a sentence does: "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// resolved is the theme the configured name stands for now.
func (t *terminal) resolved() themes.Theme {
	return t.themes.Resolve(t.themeName, t.darkBG)
}

// apply makes the resolved theme the theme of every part: styles,
// Markdown style, and a new style generation so caches re-render.
func (t *terminal) apply(ctx *uictx.Context) {
	// On a 16-colour terminal every role gets a colour that stays
	// readable there.
	th := t.resolved().ForProfile(t.profile)
	ctx.Theme = th
	th.SetStyles(&ctx.Styles, ctx.NoColor)
	ctx.Glamour = th.Glamour(ctx.NoColor)
	ctx.StyleGen++
}

// profileKnown takes the colour profile Bubble Tea found for the terminal
// (unless a test pinned one); it reports whether the theme must be applied
// again.
func (t *terminal) profileKnown(p, pinned colorprofile.Profile) bool {
	if pinned != 0 || p == t.profile {
		return false
	}
	t.profile = p
	return true
}

// backgroundKnown takes the terminal's answer to the background colour
// query; it reports whether the theme changed (auto becomes dark or light).
func (t *terminal) backgroundKnown(dark bool) bool {
	if t.darkBG == dark {
		return false
	}
	t.darkBG = dark
	return strings.EqualFold(t.themeName, themes.Auto)
}

// restyle applies the theme again and re-renders what depends on it.
func (m *Model) restyle() tea.Cmd {
	m.term.apply(m.ctx)
	m.tr.Restyle()
	return m.tickIfNeeded()
}

// setTheme switches to a theme by name ("auto" included).
func (m *Model) setTheme(name string) tea.Cmd {
	if name == "" {
		return nil
	}
	if !strings.EqualFold(name, themes.Auto) {
		if _, ok := m.term.themes.Get(name); !ok {
			near, choose := themeHelp(name, m.term.themes, &m.ctx.Keys)
			return m.notes.show("there is no theme named "+strconv.Quote(name)+" ("+near+"): "+choose, toastErr)
		}
	}
	if m.term.themeName == name && m.ctx.Theme.Name == m.term.resolved().Name {
		return nil
	}
	m.term.themeName = name
	return m.restyle()
}
