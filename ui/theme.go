package ui

import (
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/config"
	"parley/themes"
)

// loadThemes reads the user's theme files ($XDG_CONFIG_HOME/parley/themes)
// and returns one problem per bad file (the file is skipped).
func (m *Model) loadThemes() []string {
	dir := ""
	if d := config.Dir(m.configEnv()); d != "" {
		dir = filepath.Join(d, "themes")
	}
	set, errs := themes.NewSet(), []error(nil)
	if dir != "" {
		set, errs = themes.Load(dir)
	}
	m.term.themes = set
	var problems []string
	for _, err := range errs {
		// Name files relative to the themes directory: the full path would
		// push the problem itself off the line.
		problems = append(problems, strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	name := strings.TrimSpace(m.term.themeName)
	if name == "" {
		m.term.themeName = themes.Auto
	} else if !strings.EqualFold(name, themes.Auto) {
		if _, ok := set.Get(name); !ok {
			problems = append(problems, "theme \""+name+"\" does not exist (choose one with the theme picker); using auto.")
			m.term.themeName = themes.Auto
		}
	}
	return problems
}

// resolvedTheme is the theme the configured name stands for now.
func (m *Model) resolvedTheme() themes.Theme {
	return m.term.themes.Resolve(m.term.themeName, m.term.darkBG)
}

// applyTheme makes t the theme of every part: styles, Markdown style, and a
// new style generation so caches re-render.
func (m *Model) applyTheme(t themes.Theme) {
	// On a 16-colour terminal every role gets a colour that stays
	// readable there.
	t = t.ForProfile(m.term.profile)
	m.ctx.Theme = t
	m.ctx.Styles = t.Styles(m.ctx.NoColor)
	m.ctx.Glamour = t.Glamour(m.ctx.NoColor)
	m.ctx.StyleGen++
}

// restyle re-renders everything after a theme change.
func (m *Model) restyle() tea.Cmd {
	m.tr.Restyle()
	return m.tickIfNeeded()
}

// profileKnown is the colour profile Bubble Tea found for the terminal:
// a change re-applies the theme for it.
func (m *Model) profileKnown(p colorprofile.Profile) tea.Cmd {
	if m.opts.Profile != 0 || p == m.term.profile {
		return nil
	}
	m.term.profile = p
	m.applyTheme(m.resolvedTheme())
	return m.restyle()
}

// backgroundKnown is the terminal's answer to the background colour query:
// the auto theme becomes dark or light.
func (m *Model) backgroundKnown(dark bool) tea.Cmd {
	if m.term.darkBG == dark {
		return nil
	}
	m.term.darkBG = dark
	if !strings.EqualFold(m.term.themeName, themes.Auto) {
		return nil
	}
	m.applyTheme(m.resolvedTheme())
	return m.restyle()
}

// setTheme switches to a theme by name ("auto" included).
func (m *Model) setTheme(name string) tea.Cmd {
	if name == "" {
		return nil
	}
	if !strings.EqualFold(name, themes.Auto) {
		if _, ok := m.term.themes.Get(name); !ok {
			return m.notify("there is no theme named "+name+"; choose one with the theme picker", toastErr)
		}
	}
	if m.term.themeName == name && m.ctx.Theme.Name == m.resolvedTheme().Name {
		return nil
	}
	m.term.themeName = name
	m.applyTheme(m.resolvedTheme())
	return m.restyle()
}
