package preview

import (
	"fmt"
	"strings"

	"parley/ui/termprobe"
)

// Mode is how pictures are drawn.
type Mode uint8

// The modes. KittyTmux is Kitty inside tmux: the same placeholders, with
// every graphics command wrapped in tmux's passthrough sequence and the
// image id carried in a 256-colour index, which tmux passes unchanged
// whether or not it knows the outer terminal takes 24-bit colour.
//
// KittyDirect, Sixel and ITerm are drawn beside the frame, not in it: the
// frame holds marker cells where the picture goes (Rendered.Lines), and a
// Stage finds them in the composed frame, puts blank cells in their place
// and writes the picture there (a kitty placement, a sixel image, an
// iTerm2 inline image), again whenever it moves and never while it stays.
const (
	Off Mode = iota
	Blocks
	Kitty
	KittyTmux
	KittyDirect
	Sixel
	ITerm
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
	case KittyDirect:
		return "kitty (direct placement)"
	case Sixel:
		return "sixel"
	case ITerm:
		return "iterm"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Describe says in words how pictures are drawn, for `parley doctor` and
// /about.
func (m Mode) Describe() string {
	switch m {
	case Off:
		return "none (images = \"off\" or --no-images)"
	case Blocks:
		return "half blocks"
	case Kitty:
		return "kitty graphics, Unicode placeholders"
	case KittyTmux:
		return "kitty graphics, Unicode placeholders through tmux"
	case KittyDirect:
		return "kitty graphics, direct placement"
	case Sixel:
		return "sixel"
	case ITerm:
		return "iTerm2 inline images (OSC 1337)"
	}
	return m.String()
}

// IsKitty reports whether m draws with the kitty graphics protocol.
func (m Mode) IsKitty() bool { return m == Kitty || m == KittyTmux || m == KittyDirect }

// Staged reports whether m draws pictures beside the frame (through a
// Stage) rather than in it.
func (m Mode) Staged() bool { return m == KittyDirect || m == Sixel || m == ITerm }

// placeholders reports whether m draws kitty's Unicode placeholders.
func (m Mode) placeholders() bool { return m == Kitty || m == KittyTmux }

// The values of the images setting (`images = "auto"` in the config; the
// --no-images flag means "off").
const (
	SettingAuto   = "auto"
	SettingBlocks = "blocks"
	SettingKitty  = "kitty"
	SettingSixel  = "sixel"
	SettingITerm  = "iterm"
	SettingOff    = "off"
)

// Settings are the values the images setting takes, in the order the
// documentation gives them.
var Settings = []string{SettingAuto, SettingKitty, SettingSixel, SettingITerm, SettingBlocks, SettingOff}

// Known is what parley learnt about the terminal: its answers to the
// probe, and inside tmux what tmux said about its client.
type Known struct {
	Facts termprobe.Facts
	Tmux  Tmux
}

// Choice is the mode chosen and the terminal it was chosen for.
type Choice struct {
	Mode     Mode
	Terminal termprobe.Terminal
}

// Select picks the mode for the images setting from the environment alone,
// as at start before the terminal answered: Choose with nothing known.
func Select(setting string, getenv func(string) string) Mode {
	return Choose(setting, getenv, Known{}).Mode
}

// Choose picks the mode for the images setting. The rules, in order:
//
//   - "off" draws nothing.
//   - NO_COLOR (set and not empty) means half blocks, whatever the setting:
//     the placeholders carry the image id in their colour, which a
//     colourless screen drops, and a NO_COLOR screen wants no pictures in
//     colour. The colour profile then makes the blocks shade characters.
//   - "blocks" means half blocks; "sixel" sixel; "iterm" iTerm2's inline
//     images, trusted without checks.
//   - "kitty" means the kitty protocol, trusted: placeholders, through
//     tmux's passthrough inside tmux (TMUX set, or TERM naming tmux, as over
//     SSH from a tmux pane; it needs `set -g allow-passthrough on`), and
//     direct placement in a terminal known not to draw placeholders
//     (kitty before 0.28, WezTerm, Konsole).
//   - "auto" (or empty, or unknown) picks by the terminal (Identify: its
//     XTVERSION answer, else its environment) and what it answered: kitty
//     0.28 and later and Ghostty draw placeholders; kitty before 0.28 (or
//     of an unknown version), WezTerm and Konsole 23 and later get direct
//     placement (Konsole 22 and before, or of an unknown version, half
//     blocks: see below);
//     iTerm2 gets its inline images; a terminal whose device attributes
//     list sixel (xterm started as a VT340 or with sixel on, foot, mlterm,
//     Windows Terminal 1.22 and later, VS Code with images on) gets sixel;
//     another that answered the kitty query gets direct placement. Inside
//     tmux, placeholders when tmux's client is kitty 0.28 or later or
//     Ghostty and allow-passthrough is on; sixel when tmux itself lists
//     sixel (tmux 3.4 built with it); else half blocks, as in GNU screen,
//     zellij and everything else.
func Choose(setting string, getenv func(string) string, k Known) Choice {
	t := termprobe.Identify(getenv, k.Facts)
	c := Choice{Mode: Blocks, Terminal: t}
	if setting == SettingOff {
		c.Mode = Off
		return c
	}
	if getenv("NO_COLOR") != "" {
		return c
	}
	term := getenv("TERM")
	inTmux := getenv("TMUX") != "" || strings.HasPrefix(term, "tmux")
	switch setting {
	case SettingBlocks:
		return c
	case SettingSixel:
		c.Mode = Sixel
		return c
	case SettingITerm:
		c.Mode = ITerm
		return c
	case SettingKitty:
		switch {
		case inTmux:
			c.Mode = KittyTmux
		case noPlaceholders(t):
			c.Mode = KittyDirect
		default:
			c.Mode = Kitty
		}
		return c
	}
	switch {
	case inTmux:
		if k.Tmux.Passthrough && tmuxClientPlaceholders(k.Tmux) {
			c.Mode = KittyTmux
		} else if k.Facts.Sixel {
			c.Mode = Sixel
		}
		return c
	case getenv("STY") != "", getenv("ZELLIJ") != "", strings.HasPrefix(term, "screen"), term == "dumb":
		return c
	}
	switch t.Name {
	case termprobe.Ghostty:
		c.Mode = Kitty
	case termprobe.Kitty:
		if termprobe.AtLeast(t.Version, "0.28") {
			c.Mode = Kitty
		} else if k.Facts.Answered || t.Version != "" {
			// Before 0.28, or a kitty that did not say which: placements
			// every kitty since 0.20 draws. Until the terminal answered,
			// half blocks: a picture drawn now is redrawn when it does.
			c.Mode = KittyDirect
		}
	case termprobe.WezTerm:
		c.Mode = KittyDirect
	case termprobe.Konsole:
		// Tried in Konsole 22.12.3 (Debian 12's): it answers the kitty
		// query and lists sixel, but drops a kitty placement on its own
		// soon after drawing it, and keeps sixel pictures on screen after
		// the text over them changed. Half blocks there; later versions
		// get direct placement, as their documentation describes.
		if termprobe.AtLeast(t.Version, "23") {
			c.Mode = KittyDirect
		}
	case termprobe.ITerm2:
		c.Mode = ITerm
	default:
		switch {
		case k.Facts.Sixel:
			c.Mode = Sixel
		case k.Facts.KittyGraphics:
			c.Mode = KittyDirect
		}
	}
	return c
}

// noPlaceholders reports whether t is a terminal known to speak the kitty
// protocol without drawing Unicode placeholders.
func noPlaceholders(t termprobe.Terminal) bool {
	switch t.Name {
	case termprobe.WezTerm, termprobe.Konsole:
		return true
	case termprobe.Kitty:
		return t.Version != "" && !termprobe.AtLeast(t.Version, "0.28")
	}
	return false
}

// tmuxClientPlaceholders reports whether tmux's client runs in a terminal
// that draws kitty's placeholders: by the type tmux learnt from it (tmux
// 3.3 and later: "kitty(0.26.5)"), else by its TERM.
func tmuxClientPlaceholders(t Tmux) bool {
	if ct := termprobe.Identify(func(string) string { return "" }, termprobe.Facts{Version: t.ClientType}); ct.Name != "" {
		switch ct.Name {
		case termprobe.Ghostty:
			return true
		case termprobe.Kitty:
			return termprobe.AtLeast(ct.Version, "0.28")
		}
		return false
	}
	return t.ClientTerm == "xterm-kitty" || t.ClientTerm == "xterm-ghostty"
}
