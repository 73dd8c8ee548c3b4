package ui

import (
	"strings"

	"github.com/charmbracelet/colorprofile"
)

// about says what /about shows of the terminal and pictures.
func (p *pictures) about(version string, profile colorprofile.Profile) string {
	var b strings.Builder
	b.WriteString("parley ")
	if version == "" {
		version = "(development build)"
	}
	b.WriteString(version)
	b.WriteString(" · terminal: ")
	b.WriteString(p.choice.Terminal.String())
	if !p.known.Facts.Answered {
		b.WriteString(" (it has not answered yet)")
	}
	if p.known.Tmux.ClientTerm != "" {
		b.WriteString(", in tmux on ")
		b.WriteString(p.known.Tmux.ClientTerm)
	}
	b.WriteString(" · pictures: ")
	b.WriteString(p.mode.Describe())
	b.WriteString(" · colours: ")
	b.WriteString(profileName(profile))
	return b.String()
}

// profileName says a colour profile in words.
func profileName(p colorprofile.Profile) string {
	switch p {
	case colorprofile.TrueColor:
		return "24-bit"
	case colorprofile.ANSI256:
		return "256"
	case colorprofile.ANSI:
		return "16"
	case colorprofile.Ascii:
		return "none (NO_COLOR)"
	}
	return "unknown"
}
