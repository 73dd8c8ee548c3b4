package desktop

// ClipboardRoute says in a few words which way the clipboard is read and
// written here, for `parley doctor` and `/about`: "Windows' clipboard
// through powershell.exe (WSL)", "wl-paste and wl-copy (Wayland)", "the
// terminal's (OSC 52; kitty's OSC 5522 for images), no desktop clipboard
// over SSH". A missing tool is named as missing.
func (s System) ClipboardRoute() string {
	if name, ps := s.wslPowerShell(); ps != "" {
		return "Windows' clipboard through " + name + " (WSL)"
	}
	have := func(tools ...string) string {
		for _, t := range tools {
			if s.find(t) != "" {
				return t
			}
		}
		return ""
	}
	switch s.session() {
	case wayland:
		if have("wl-paste") != "" {
			return "wl-paste and wl-copy (Wayland)"
		}
		return "none: install wl-clipboard (Wayland); copies go through the terminal (OSC 52)"
	case x11:
		if t := have("xclip", "xsel"); t != "" {
			return t + " (X11)"
		}
		return "none: install xclip (X11); copies go through the terminal (OSC 52)"
	case macOS:
		return "pbpaste, pbcopy and osascript (macOS)"
	case windows:
		if name, ps := s.powershell(); ps != "" {
			return name + " (Windows)"
		}
		return "none: powershell.exe is not on PATH (Windows)"
	}
	if s.getenv("SSH_CONNECTION") != "" || s.getenv("SSH_TTY") != "" {
		return "the terminal's (OSC 52; kitty's OSC 5522 for images): no desktop clipboard over SSH"
	}
	return "the terminal's (OSC 52; kitty's OSC 5522 for images): no graphical session"
}
