package termprobe

import (
	"strconv"
	"strings"
)

// The terminals parley tells apart, as Terminal.Name gives them.
const (
	Kitty           = "kitty"
	Ghostty         = "Ghostty"
	WezTerm         = "WezTerm"
	Konsole         = "Konsole"
	Foot            = "foot"
	XTerm           = "XTerm"
	ITerm2          = "iTerm2"
	Mlterm          = "mlterm"
	WindowsTerminal = "Windows Terminal"
	VSCode          = "VS Code"
	Tmux            = "tmux"
)

// Terminal is a terminal's name and version, from its own answer where it
// gave one, else from the environment it set.
type Terminal struct {
	Name, Version string
}

func (t Terminal) String() string {
	switch {
	case t.Name == "":
		return "unknown"
	case t.Version == "":
		return t.Name
	}
	return t.Name + " " + t.Version
}

// Identify names the terminal from f's XTVERSION answer and, where that
// says nothing, from the variables terminals set (TERM_PROGRAM,
// KITTY_WINDOW_ID, WT_SESSION, KONSOLE_VERSION, XTERM_VERSION, …). Inside
// tmux the answer is tmux's own.
func Identify(getenv func(string) string, f Facts) Terminal {
	if t := fromVersion(f.Version); t.Name != "" {
		return t
	}
	return fromEnv(getenv)
}

// fromVersion reads an XTVERSION answer: "name(version)" or "name version".
func fromVersion(v string) Terminal {
	v = strings.TrimSpace(v)
	if v == "" {
		return Terminal{}
	}
	name, ver := v, ""
	if i := strings.IndexAny(v, "( "); i > 0 {
		name, ver = v[:i], strings.TrimSpace(strings.Trim(v[i:], "() "))
	}
	return Terminal{Name: canonical(name), Version: ver}
}

// canonical spells a terminal's name the way parley shows it.
func canonical(name string) string {
	switch strings.ToLower(name) {
	case "kitty":
		return Kitty
	case "ghostty":
		return Ghostty
	case "wezterm":
		return WezTerm
	case "konsole":
		return Konsole
	case "foot":
		return Foot
	case "xterm":
		return XTerm
	case "iterm2", "iterm.app":
		return ITerm2
	case "mlterm":
		return Mlterm
	case "tmux":
		return Tmux
	case "vscode", "xterm.js":
		return VSCode
	}
	return name
}

func fromEnv(getenv func(string) string) Terminal {
	term := getenv("TERM")
	switch prog := getenv("TERM_PROGRAM"); prog {
	case "iTerm.app", "WezTerm", "vscode", "ghostty":
		return Terminal{Name: canonical(prog), Version: printable(getenv("TERM_PROGRAM_VERSION"), 40)}
	case "tmux":
		return Terminal{Name: Tmux, Version: printable(getenv("TERM_PROGRAM_VERSION"), 40)}
	}
	switch {
	case getenv("TMUX") != "":
		return Terminal{Name: Tmux}
	case term == "xterm-ghostty":
		return Terminal{Name: Ghostty}
	case term == "xterm-kitty":
		return Terminal{Name: Kitty}
	case getenv("WEZTERM_PANE") != "":
		return Terminal{Name: WezTerm}
	case getenv("VTE_VERSION") != "":
		// GNOME Terminal and the other VTE terminals; also one started
		// from kitty, which inherits KITTY_WINDOW_ID.
		return Terminal{Name: "VTE", Version: printable(getenv("VTE_VERSION"), 20)}
	case getenv("ALACRITTY_WINDOW_ID") != "":
		return Terminal{Name: "Alacritty"}
	case getenv("KITTY_WINDOW_ID") != "":
		return Terminal{Name: Kitty}
	case getenv("WT_SESSION") != "":
		return Terminal{Name: WindowsTerminal}
	case getenv("KONSOLE_VERSION") != "":
		return Terminal{Name: Konsole, Version: konsoleVersion(printable(getenv("KONSOLE_VERSION"), 20))}
	case strings.HasPrefix(term, "foot"):
		return Terminal{Name: Foot}
	case getenv("MLTERM") != "":
		return Terminal{Name: Mlterm, Version: printable(getenv("MLTERM"), 20)}
	case getenv("XTERM_VERSION") != "":
		return fromVersion(printable(getenv("XTERM_VERSION"), 40))
	}
	return Terminal{}
}

// AtLeast reports whether version (dotted numbers, "0.26.5") is at least
// want ("0.28"); a version that does not read as numbers is not.
func AtLeast(version, want string) bool {
	have, ok := numbers(version)
	if !ok {
		return false
	}
	need, _ := numbers(want)
	for i := range max(len(have), len(need)) {
		var h, n int
		if i < len(have) {
			h = have[i]
		}
		if i < len(need) {
			n = need[i]
		}
		if h != n {
			return h > n
		}
	}
	return true
}

func numbers(v string) ([]int, bool) {
	if v == "" {
		return nil, false
	}
	var out []int
	for p := range strings.SplitSeq(v, ".") {
		// "3.3a", "1.22.250": the digits a part starts with.
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(p[:end])
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// konsoleVersion spells KONSOLE_VERSION ("221203": two digits each for
// the year, the month and the patch) the way Konsole's own XTVERSION
// answer does ("22.12.3"); another form is kept as it is.
func konsoleVersion(v string) string {
	if len(v) != 6 {
		return v
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return v
		}
	}
	n := func(s string) string { return strconv.Itoa(int(s[0]-'0')*10 + int(s[1]-'0')) }
	return n(v[0:2]) + "." + n(v[2:4]) + "." + n(v[4:6])
}
