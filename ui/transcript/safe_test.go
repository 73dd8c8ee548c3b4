package transcript

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
)

// unsafeIn returns a description of the first thing in s that is not
// plain text, a newline or an SGR sequence, or "".
func unsafeIn(s string) string {
	p := ansi.NewParser()
	var state byte
	for len(s) > 0 {
		seq, _, n, next := ansi.DecodeSequence(s, state, p)
		state = next
		switch {
		case n == 0:
			return "decoder stuck"
		case seq == "\n":
		case seq[0] == ansi.ESC:
			cmd := ansi.Cmd(p.Command())
			if !ansi.HasCsiPrefix(seq) || cmd.Final() != 'm' || cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
				return "escape sequence " + strings.ReplaceAll(seq, "\x1b", "ESC")
			}
		default:
			for _, r := range seq {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
					return "control character " + strings.ReplaceAll(string(r), "\x1b", "ESC")
				}
			}
			if ansi.HasOscPrefix(seq) || ansi.HasDcsPrefix(seq) || ansi.HasApcPrefix(seq) || ansi.HasCsiPrefix(seq) {
				return "C1 sequence " + seq
			}
		}
		s = s[n:]
	}
	return ""
}

func TestUnsafeInDetects(t *testing.T) {
	for _, bad := range []string{"\x1b[2J", "\x1b]52;c;aGk=\x07", "\x1b]8;;http://x\x1b\\", "a\x9b2J", "\x1bc", "\x1bP1$r\x1b\\", "\x07", "\r", "\u202e"} {
		if unsafeIn("ok "+bad) == "" {
			t.Errorf("unsafeIn misses %q", bad)
		}
	}
	if got := unsafeIn("\x1b[1;38;2;1;2;3mhi\x1b[m\n\x1b[0m"); got != "" {
		t.Errorf("unsafeIn flags SGR: %s", got)
	}
	if a := sgrAttributes("\x1b[38;2;5;8;6m\x1b[48;5;8mx\x1b[1;8mhidden\x1b[5m"); !a[1] || !a[8] || !a[5] || a[6] || a[2] {
		t.Errorf("sgrAttributes: %v", a)
	}
}

// TestSplitEscapesNeverReachView streams sequences a hostile model could
// send, each split across two deltas at every byte, and checks after every
// frame that the view holds nothing but text and colours, and that the
// neutralised sequences are visible as placeholders.
func TestSplitEscapesNeverReachView(t *testing.T) {
	attacks := []struct{ seq, visible string }{
		{"\x1b]52;c;SGVsbG8=\x07", "␛]52;c;SGVsbG8=␇"},                                 // clipboard write
		{"\x1b[2J\x1b[H", "␛[2J␛[H"},                                                   // clear screen, cursor home
		{"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "␛]8;;https://evil"}, // hyperlink
		{"\x1b]0;owned\x07", "␛]0;owned␇"},                                             // window title
		{"\x1bP+q544e\x1b\\", "␛P+q544e"},                                              // DCS query
		{"\xc2\x9b31m", "⟨U+009B⟩31m"},                                                 // C1 CSI
		{"&#27;[2J", "␛[2J"},                                                           // character reference glamour decodes
		{"&#x1b;]52;c;eA==&#7;", "␛]52;c;eA==␇"},
		{"&#155;2J", "›2J"},                                // HTML maps 128–159 to Windows-1252: "›", not C1 CSI
		{"&#27;[8mconcealed&#27;[0m", "␛[8mconcealed␛[0m"}, // even colours: conceal
		{"&#x1B;[5;31mblink", "␛[5;31mblink"},              // blink, red
		{"&#X1b[2J&#0027;[H", "␛[2J␛[H"},                   // no semicolon, leading zeros
		{"\u202egnp.exe", "⟨U+202E⟩gnp.exe"},               // bidi override
		{"\x1bc", "␛c"},                                    // reset
	}
	for _, a := range attacks {
		for cut := 1; cut < len(a.seq); cut++ {
			tr := newTest(t, 70, 12)
			m := streamingMsg(1)
			m.Model = "evil\x1b]0;title\x07model"
			tr.Append(m)
			tr.AppendDelta(1, "Before "+a.seq[:cut])
			tickRun(tr)
			if bad := unsafeIn(tr.List().View()); bad != "" {
				t.Fatalf("%q cut at %d, first frame: %s", a.seq, cut, bad)
			}
			tr.AppendDelta(1, a.seq[cut:]+" after, and a [link](https://example.com).\n\n")
			tickRun(tr)
			v := tr.List().View()
			if bad := unsafeIn(v); bad != "" {
				t.Fatalf("%q cut at %d: %s", a.seq, cut, bad)
			}
			// The model cannot set even a colour or an attribute: the only
			// SGR on screen is the theme's (no conceal, no blink).
			if attrs := sgrAttributes(v); attrs[5] || attrs[6] || attrs[8] {
				t.Fatalf("%q cut at %d: a model-made attribute reached the view: %q", a.seq, cut, v)
			}
			plain := ansi.Strip(v)
			if !strings.Contains(plain, a.visible) {
				t.Fatalf("%q cut at %d: placeholder %q not visible in\n%s", a.seq, cut, a.visible, plain)
			}
			if !strings.Contains(plain, "evil␛]0;title␇model") {
				t.Fatalf("model name not neutralised:\n%s", plain)
			}
		}
	}
}

// TestFinishedHostileReply covers the paths that do not stream: a loaded
// conversation, a failed reply's error message, a user's pasted text.
func TestFinishedHostileReply(t *testing.T) {
	evil := "x\x1b]52;c;SGk=\x07 \x1b[2J &#27;[1A \x9b \u2066 [l](https://e.example) <https://auto.example>"
	tr := newTest(t, 60, 40)
	f := streamingMsg(3)
	f.Text, f.State, f.Err = evil, conversation.StateFailed, "gateway said: "+evil
	tr.Reset([]conversation.Message{userMsg(1, evil), replyMsg(2, evil), f})
	if bad := unsafeIn(tr.List().View()); bad != "" {
		t.Fatalf("view: %s\n%q", bad, tr.List().View())
	}
	for i, it := range tr.list.items {
		for k := 0; k < it.height(); k++ {
			if bad := unsafeIn(it.line(k)); bad != "" {
				t.Fatalf("item %d line %d: %s", i, k, bad)
			}
		}
	}
}

// sgrAttributes returns the attribute codes (bold 1, blink 5, conceal 8, …)
// set by the SGR sequences in s, skipping colour arguments (38;5;n,
// 38;2;r;g;b and their 48/58 forms).
func sgrAttributes(s string) map[int]bool {
	out := map[int]bool{}
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return out
		}
		s = s[i+2:]
		j := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != ';' && r != ':' })
		if j < 0 || s[j] != 'm' {
			continue
		}
		params := strings.FieldsFunc(s[:j], func(r rune) bool { return r == ';' || r == ':' })
		for k := 0; k < len(params); k++ {
			n, _ := strconv.Atoi(params[k])
			switch {
			case (n == 38 || n == 48 || n == 58) && k+1 < len(params) && params[k+1] == "5":
				k += 2
			case (n == 38 || n == 48 || n == 58) && k+1 < len(params) && params[k+1] == "2":
				k += 4
			default:
				out[n] = true
			}
		}
		s = s[j:]
	}
}
