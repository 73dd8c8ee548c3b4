// Package uictx holds the one context struct every part of the UI reads
// (the terminal size, the theme with its styles, and the key map), which
// the root model owns and changes in Update while components only read
// it; and the one contract of the UI's overlays, panes and pickers
// (Component, its Action and its Hints).
package uictx

import (
	"charm.land/glamour/v2/ansi"

	"parley/themes"
	"parley/ui/keys"
)

// Context is what every UI component may read. Components keep the pointer
// and never write through it; the root model changes it only in Update and
// then tells the components (SetSize, Restyle).
type Context struct {
	// Width and Height are the terminal's size in cells.
	Width, Height int
	// Theme is the active theme (a resolved one: "auto" has become dark or
	// light by the time a component sees it).
	Theme themes.Theme
	// Styles are the lipgloss styles made from Theme.
	Styles themes.Styles
	// Glamour is the Markdown style made from Theme.
	Glamour ansi.StyleConfig
	// StyleGen grows by one whenever Theme, Styles, Glamour or NoColor
	// change, so components can cache renderings per generation.
	StyleGen int
	// NoColor is set when NO_COLOR is honoured: styles carry no colours
	// (bold, italic, underline and reverse still apply).
	NoColor bool
	// Keys is the live key map (defaults plus the config's [keys]).
	Keys keys.Map
}
