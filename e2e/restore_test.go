package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// assertRestored checks that parley exited with status 0 and left the
// terminal as a shell needs it: the normal screen back (with the shell's
// own lines, not the chat), the cursor visible, no mouse reporting, no
// keypad modes, the tty modes as before, and every mode parley turned on in
// its output turned off again. chat is text that was on parley's screen and
// must not be on the shell's.
func assertRestored(t *testing.T, ex exited, chat ...string) {
	t.Helper()
	if ex.status != 0 || ex.deadStatus != "0" {
		t.Errorf("exit status %d (pane_dead_status %q), want 0; the screen:\n%s", ex.status, ex.deadStatus, frame(ex.screen))
	}
	if !ex.ttyRestored {
		t.Errorf("the tty modes (stty -g) differ after parley exited")
	}
	if !strings.Contains(ex.screen, shellReady) {
		t.Errorf("the shell's screen is not back after exit:\n%s", frame(ex.screen))
	}
	for _, c := range chat {
		if strings.Contains(ex.screen, c) {
			t.Errorf("the chat (%q) is still on the screen after exit:\n%s", c, frame(ex.screen))
		}
	}
	// The shell's lines, before and after parley, are plain text: styled
	// here means parley left colours or attributes on.
	if strings.Contains(ex.screenANSI, "\x1b") {
		t.Errorf("the shell's text after exit is styled (attributes left on): %q", ex.screenANSI)
	}
	want := map[string]string{
		"alternate_on":        "0",
		"cursor_flag":         "1",
		"insert_flag":         "0",
		"keypad_cursor_flag":  "0",
		"keypad_flag":         "0",
		"mouse_all_flag":      "0",
		"mouse_any_flag":      "0",
		"mouse_button_flag":   "0",
		"mouse_sgr_flag":      "0",
		"mouse_standard_flag": "0",
		"mouse_utf8_flag":     "0",
		"origin_flag":         "0",
		"wrap_flag":           "1",
		"scroll_region_upper": "0",
	}
	for k, v := range want {
		if got := ex.flags[k]; got != v {
			t.Errorf("after exit #{%s} = %q, want %q", k, got, v)
		}
	}
	if h, err := strconv.Atoi(ex.flags["pane_height"]); err != nil || ex.flags["scroll_region_lower"] != strconv.Itoa(h-1) {
		t.Errorf("after exit the scroll region is %s–%s of %s lines, want the whole screen",
			ex.flags["scroll_region_upper"], ex.flags["scroll_region_lower"], ex.flags["pane_height"])
	}
	if strings.Contains(ex.flags["pane_title"], "parley") {
		t.Errorf("after exit the title is still parley's: %q", ex.flags["pane_title"])
	}
	for _, p := range leftModes(ex.raw) {
		t.Errorf("parley's output leaves the terminal changed: %s", p)
	}
}

// csiRE matches the control sequences that set and reset terminal modes.
var csiRE = regexp.MustCompile(`\x1b\[([?<>=]?)([0-9;:]*)( ?)([hlmuq])|\x1b\](\d+)(?:;[^\x07\x1b]*)?(?:\x07|\x1b\\)`)

// leftModes replays the mode changes in a program's output and lists the
// ones still in effect at its end: private modes set (DECSET) and not reset,
// the cursor hidden or autowrap off, kitty keyboard flags pushed and not
// popped, modifyOtherKeys on, a cursor shape or colour not reset.
func leftModes(raw []byte) []string {
	private := map[int]bool{} // DECSET/DECRST, last state seen
	kitty := 0                // depth of the kitty keyboard stack
	kittySet := false         // CSI = flags u with non-zero flags
	modifyOtherKeys := false
	cursorShape := false
	cursorColour := false
	for _, m := range csiRE.FindAllSubmatch(raw, -1) {
		if osc := string(m[5]); osc != "" {
			switch osc {
			case "12":
				cursorColour = true
			case "112":
				cursorColour = false
			}
			continue
		}
		prefix, params, space, final := string(m[1]), string(m[2]), string(m[3]), string(m[4])
		nums := func() []int {
			var out []int
			for _, p := range strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' }) {
				n, err := strconv.Atoi(p)
				if err != nil {
					return nil
				}
				out = append(out, n)
			}
			return out
		}
		switch {
		case prefix == "?" && (final == "h" || final == "l") && space == "":
			for _, n := range nums() {
				private[n] = final == "h"
			}
		case prefix == ">" && final == "u":
			kitty++
		case prefix == "<" && final == "u":
			n := 1
			if ns := nums(); len(ns) > 0 {
				n = ns[0]
			}
			kitty = max(0, kitty-n)
		case prefix == "=" && final == "u":
			ns := nums()
			kittySet = len(ns) > 0 && ns[0] != 0
		case prefix == ">" && final == "m":
			ns := nums()
			if len(ns) > 0 && ns[0] == 4 {
				modifyOtherKeys = len(ns) > 1 && ns[1] != 0
			}
		case prefix == "" && space == " " && final == "q":
			ns := nums()
			cursorShape = len(ns) > 0 && ns[0] != 0
		}
	}
	var left []string
	for mode, on := range private {
		switch mode {
		case 25, 7: // cursor visible, autowrap: must end on
			if !on {
				left = append(left, fmt.Sprintf("private mode %d left off (CSI ?%dl without CSI ?%dh)", mode, mode, mode))
			}
		default:
			if on {
				left = append(left, fmt.Sprintf("private mode %d left on (CSI ?%dh without CSI ?%dl)", mode, mode, mode))
			}
		}
	}
	if kitty > 0 || kittySet {
		left = append(left, fmt.Sprintf("kitty keyboard flags left pushed (depth %d)", kitty))
	}
	if modifyOtherKeys {
		left = append(left, "modifyOtherKeys left on")
	}
	if cursorShape {
		left = append(left, "cursor shape not reset")
	}
	if cursorColour {
		left = append(left, "cursor colour (OSC 12) not reset (OSC 112)")
	}
	return left
}

// TestLeftModes checks the replay on outputs that do and do not restore.
func TestLeftModes(t *testing.T) {
	clean := "\x1b[?1049h\x1b[?2004h\x1b[>4;2m\x1b[>1u\x1b]12;#7aa2f7\a\x1b[1 q\x1b[?25l" +
		"\x1b]112\a\x1b[0 q\x1b[>4m\x1b[<1u\x1b[?1049l\x1b[?25h\x1b[?2004l"
	if left := leftModes([]byte(clean)); len(left) != 0 {
		t.Errorf("clean output reported as leaving %v", left)
	}
	dirty := "\x1b[?1049h\x1b[?2004;1000h\x1b[>4;2m\x1b[>1u\x1b]12;#7aa2f7\a\x1b[1 q\x1b[?25l\x1b[?1000l"
	left := leftModes([]byte(dirty))
	for _, want := range []string{"private mode 1049", "private mode 2004", "private mode 25", "kitty", "modifyOtherKeys", "cursor shape", "cursor colour"} {
		found := false
		for _, l := range left {
			found = found || strings.Contains(l, want)
		}
		if !found {
			t.Errorf("dirty output: %q not reported in %v", want, left)
		}
	}
	if len(left) != 7 {
		t.Errorf("dirty output: %d findings, want 7: %v", len(left), left)
	}
}
