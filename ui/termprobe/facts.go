// Package termprobe finds out which terminal parley runs in and what it can
// draw: it asks the terminal (XTVERSION for its name and version, the
// primary device attributes, DA1, for sixel, the kitty graphics query
// a=q, XTSMGRAPHICS for the sixel geometry and colour registers, and the
// size of a cell in pixels) and reads the answers into Facts. In the chat
// the questions go out with the first frame and the answers come back as
// Bubble Tea messages (Take); `parley doctor` asks on /dev/tty and waits
// for them itself (Probe). DA1 goes last: every terminal answers it, so
// its answer means the others have come or never will.
package termprobe

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// Facts is what the terminal said about itself.
type Facts struct {
	// Version is the terminal's XTVERSION answer as it came ("kitty(0.26.5)",
	// "XTerm(379)", "WezTerm 20240203-110809-5046fc22"), printable ASCII
	// only and at most 80 bytes; "" when it gave none.
	Version string
	// Sixel is true when the terminal's device attributes list sixel
	// graphics (4).
	Sixel bool
	// Attributes are the device attributes (DA1) as numbers.
	Attributes []int
	// KittyGraphics is true when it answered the kitty graphics query OK.
	KittyGraphics bool
	// SixelWidth and SixelHeight are the largest sixel image it draws
	// whole (XTSMGRAPHICS: the larger of its answers for the current and
	// the largest geometry), 0 when unknown.
	SixelWidth, SixelHeight int
	// Registers is the number of sixel colour registers (XTSMGRAPHICS), 0
	// when unknown.
	Registers int
	// CellWidth and CellHeight are a cell's size in pixels, 0 when unknown.
	CellWidth, CellHeight int
	// Answered is true once the terminal answered DA1: every answer it
	// will give has come.
	Answered bool
}

// kittyQueryID is the image id of the kitty graphics query: its answer
// names it, and no picture of parley's has it (theirs are over 16).
const kittyQueryID = 7

// kittyQuery asks for kitty graphics support with a 1×1 RGB image that is
// never stored (a=q); its answer names image id kittyQueryID.
const kittyQuery = "\x1b_Gi=7,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"

// Queries is what to write to ask the terminal: XTVERSION, the kitty
// graphics query, 256 sixel colour registers asked for and their number
// read back (xterm as a VT340 starts with 16), the sixel geometry
// (XTSMGRAPHICS: the current one, which xterm cuts to the window as it is
// now, and the largest, which it crops pictures to; the larger answer is
// kept), then DA1, which every terminal answers. The cell size is
// not asked (XTWINOPS 16: a tmux pane's answer to it disturbed the keys
// typed ahead of the first frame); CellSize reads it from the window size,
// and an answer that comes anyway is taken.
const Queries = "\x1b[>0q" + kittyQuery + otherQueries

const otherQueries = "\x1b[?1;3;256S" +
	"\x1b[?1;1;0S" +
	"\x1b[?2;1;0S" +
	"\x1b[?2;4;0S" +
	"\x1b[c"

// QueriesFor is Queries for the terminal getenv describes, with the kitty
// graphics query only where the environment names a terminal that speaks
// the protocol (kitty, Ghostty, WezTerm, Konsole): an APC is a window title
// to tmux and GNU screen (which pass no graphics on), and some terminals
// show it as text.
func QueriesFor(getenv func(string) string) string {
	term := getenv("TERM")
	switch {
	case getenv("TMUX") != "", getenv("STY") != "", strings.HasPrefix(term, "tmux"), strings.HasPrefix(term, "screen"):
	case term == "xterm-kitty", term == "xterm-ghostty", getenv("KITTY_WINDOW_ID") != "", getenv("WEZTERM_PANE") != "",
		getenv("KONSOLE_VERSION") != "", getenv("TERM_PROGRAM") == "WezTerm", getenv("TERM_PROGRAM") == "ghostty":
		return Queries
	}
	return "\x1b[>0q" + otherQueries
}

// Take reads one message or event into f and reports whether it was an
// answer to Queries. Bubble Tea hands the chat the answers as
// tea.TerminalVersionMsg and as Ultraviolet's events.
func (f *Facts) Take(msg any) bool {
	switch msg := msg.(type) {
	case tea.TerminalVersionMsg:
		f.Version = printable(msg.Name, 80)
	case uv.TerminalVersionEvent:
		f.Version = printable(msg.Name, 80)
	case uv.PrimaryDeviceAttributesEvent:
		f.Attributes = append(f.Attributes[:0], msg...)
		for _, a := range msg {
			if a == 4 {
				f.Sixel = true
			}
		}
		f.Answered = true
	case uv.KittyGraphicsEvent:
		if msg.Options.ID != kittyQueryID {
			return false
		}
		f.KittyGraphics = string(msg.Payload) == "OK"
	case uv.CellSizeEvent:
		if msg.Width > 0 && msg.Height > 0 && msg.Width <= 1000 && msg.Height <= 1000 {
			f.CellWidth, f.CellHeight = msg.Width, msg.Height
		}
	case uv.UnknownCsiEvent:
		return f.graphicsAttributes(string(msg))
	default:
		return false
	}
	return true
}

// graphicsAttributes reads an XTSMGRAPHICS answer: CSI ? Pi ; Ps ; Pv… S,
// where Pi is 1 (colour registers) or 2 (sixel geometry) and Ps 0 is
// success.
func (f *Facts) graphicsAttributes(seq string) bool {
	body, ok := strings.CutPrefix(seq, "\x1b[?")
	if !ok {
		return false
	}
	body, ok = strings.CutSuffix(body, "S")
	if !ok {
		return false
	}
	var n []int
	for p := range strings.SplitSeq(body, ";") {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return false
		}
		n = append(n, v)
	}
	switch {
	case len(n) == 3 && n[0] == 1:
		if n[1] == 0 {
			f.Registers = min(n[2], 1<<16)
		}
	case len(n) == 4 && n[0] == 2:
		if n[1] == 0 {
			f.SixelWidth, f.SixelHeight = max(f.SixelWidth, min(n[2], 1<<16)), max(f.SixelHeight, min(n[3], 1<<16))
		}
	default:
		return false
	}
	return true
}

// printable keeps the printable ASCII of s, at most n bytes of it: the
// terminal's answer is shown to the user.
func printable(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < n; i++ {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
		}
	}
	return b.String()
}
