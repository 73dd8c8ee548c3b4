package overlay

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// testCtx is a UI context at a fixed size with the default keys and the
// built-in dark theme.
func testCtx(t testing.TB, w, h int) *uictx.Context {
	t.Helper()
	return themedCtx(t, w, h, themes.Dark, false)
}

// themedCtx is a UI context with the named built-in theme.
func themedCtx(t testing.TB, w, h int, theme string, noColor bool) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(theme)
	if !ok {
		t.Fatalf("no built-in theme %q", theme)
	}
	return &uictx.Context{
		Width: w, Height: h,
		Theme: th, Styles: th.Styles(noColor), NoColor: noColor,
		Keys: keys.Default(),
	}
}

// key builds the key press a terminal sends for a keystroke name such as
// "up", "ctrl+p", "enter", "esc", "f1", "?" or "a".
func press(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(name, "ctrl+"):
			mod |= tea.ModCtrl
			name = strings.TrimPrefix(name, "ctrl+")
			continue
		case strings.HasPrefix(name, "alt+"):
			mod |= tea.ModAlt
			name = strings.TrimPrefix(name, "alt+")
			continue
		case strings.HasPrefix(name, "shift+"):
			mod |= tea.ModShift
			name = strings.TrimPrefix(name, "shift+")
			continue
		}
		break
	}
	special := map[string]rune{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
		"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "space": tea.KeySpace,
	}
	if c, ok := special[name]; ok {
		k := tea.KeyPressMsg{Code: c, Mod: mod}
		if c == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	r := []rune(name)
	k := tea.KeyPressMsg{Code: r[0], Mod: mod}
	if mod&(tea.ModCtrl|tea.ModAlt) == 0 {
		k.Text = name
	}
	return k
}

// typeKeys returns one key press per character of s.
func typeKeys(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		if r == ' ' {
			out = append(out, press("space"))
			continue
		}
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// requireArea fails unless view is exactly h lines of exactly w cells.
func requireArea(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, ansi.Strip(view))
	}
	for i, l := range lines {
		if got := lipgloss.Width(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

// plain strips styling.
func plain(s string) string { return ansi.Strip(s) }

// pinned renders s as a terminal with the given colour profile would get
// it, so golden files do not depend on the environment.
func pinned(t testing.TB, s string, p colorprofile.Profile) string {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: p}
	if _, err := w.WriteString(s); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
