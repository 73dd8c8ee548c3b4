package preview

import (
	"fmt"
	"strings"
)

// Mode is how pictures are drawn.
type Mode uint8

// The modes. KittyTmux is Kitty inside tmux: the same placeholders, with
// every graphics command wrapped in tmux's passthrough sequence and the
// image id carried in a 256-colour index, which tmux passes unchanged
// whether or not it knows the outer terminal takes 24-bit colour.
const (
	Off Mode = iota
	Blocks
	Kitty
	KittyTmux
)

func (m Mode) String() string {
	switch m {
	case Off:
		return "off"
	case Blocks:
		return "blocks"
	case Kitty:
		return "kitty"
	case KittyTmux:
		return "kitty (tmux)"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// IsKitty reports whether m draws with the kitty graphics protocol.
func (m Mode) IsKitty() bool { return m == Kitty || m == KittyTmux }

// The values of the images setting (`images = "auto"` in the config; the
// --no-images flag means "off").
const (
	SettingAuto   = "auto"
	SettingBlocks = "blocks"
	SettingKitty  = "kitty"
	SettingOff    = "off"
)

// Select picks the mode for the images setting in the environment getenv
// reads. It is SelectProbed without a tmux probe, so inside tmux "auto"
// means half blocks.
func Select(setting string, getenv func(string) string) Mode {
	return SelectProbed(setting, getenv, Tmux{})
}

// SelectProbed picks the mode for the images setting. The rules, in order:
//
//   - "off" draws nothing.
//   - NO_COLOR (set and not empty) means half blocks, whatever the setting:
//     the placeholders carry the image id in their colour, which a
//     colourless screen drops. The colour profile then makes the blocks
//     shade characters without colour.
//   - "blocks" means half blocks.
//   - "kitty" means kitty, trusted without checks; inside tmux (TMUX set,
//     or TERM naming tmux, as over SSH from a tmux pane) through tmux's
//     passthrough, which needs `set -g allow-passthrough on`.
//   - "auto" (or empty, or unknown) means kitty only in a terminal known to
//     draw kitty's Unicode placeholders: kitty (TERM=xterm-kitty, or
//     KITTY_WINDOW_ID with no other terminal named) and Ghostty
//     (TERM=xterm-ghostty or TERM_PROGRAM=ghostty), also over SSH, where
//     TERM travels. WezTerm, Konsole, iTerm2 and others speak parts of the
//     protocol but do not draw placeholders, so they get half blocks.
//     Inside tmux, auto means kitty only when probe (ProbeTmux) says the
//     client runs in such a terminal and allow-passthrough is on or all;
//     without a probe, or in GNU screen or zellij, half blocks.
func SelectProbed(setting string, getenv func(string) string, probe Tmux) Mode {
	if setting == SettingOff {
		return Off
	}
	if getenv("NO_COLOR") != "" {
		return Blocks
	}
	term := getenv("TERM")
	inTmux := getenv("TMUX") != "" || strings.HasPrefix(term, "tmux")
	switch setting {
	case SettingBlocks:
		return Blocks
	case SettingKitty:
		if inTmux {
			return KittyTmux
		}
		return Kitty
	}
	switch {
	case inTmux:
		if probe.Passthrough && placeholderTerm(probe.ClientTerm) {
			return KittyTmux
		}
		return Blocks
	case getenv("STY") != "", getenv("ZELLIJ") != "", strings.HasPrefix(term, "screen"), term == "dumb":
		return Blocks
	case placeholderTerm(term), getenv("TERM_PROGRAM") == "ghostty":
		return Kitty
	case getenv("KITTY_WINDOW_ID") != "" && !otherTerminal(getenv):
		return Kitty
	}
	return Blocks
}

// placeholderTerm reports whether a TERM value names a terminal that draws
// kitty's Unicode placeholders.
func placeholderTerm(term string) bool {
	return term == "xterm-kitty" || term == "xterm-ghostty"
}

// otherTerminal reports whether the environment names a terminal other than
// kitty, as when a terminal started from kitty inherits KITTY_WINDOW_ID.
func otherTerminal(getenv func(string) string) bool {
	switch getenv("TERM_PROGRAM") {
	case "", "kitty":
	default:
		return true
	}
	return getenv("VTE_VERSION") != "" || getenv("WEZTERM_PANE") != "" || getenv("ALACRITTY_WINDOW_ID") != ""
}
