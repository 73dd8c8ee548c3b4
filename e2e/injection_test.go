package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"parley/api/apitest"
)

// injection is one attack in the reply: a paragraph that starts with label,
// carries control sequences, and ends with end. shown is what the screen
// must show instead, on one row: the sequence made visible and inert,
// followed by the text that came after it, where it should be.
type injection struct {
	deltas []string // how the gateway sends it (some split mid-sequence)
	shown  string
}

// injections are the attacks of issue 3's "Must show", each in its own
// paragraph so each can be found on its own row.
var injections = []injection{
	{[]string{"osc52 \x1b]52;c;cHduZWQ=\x07 end1\n\n"}, "osc52 ␛]52;c;cHduZWQ=␇ end1"},
	{[]string{"osc8 \x1b]8;;https://evil.example/\x1b\\", "click\x1b]8;;\x1b\\ end2\n\n"}, "␛]8;;␛\\ end2"},
	{[]string{"title0 \x1b", "]0;INJECTED-TITLE-0\x07 end3\n\n"}, "title0 ␛]0;INJECTED-TITLE-0␇ end3"},
	{[]string{"title2 \x1b]2;INJECTED-", "TITLE-2\x1b\\ end4\n\n"}, "title2 ␛]2;INJECTED-TITLE-2␛\\ end4"},
	{[]string{"clear \x1b[2", "J end5\n\n"}, "clear ␛[2J end5"},
	{[]string{"home \x1b[H end6\n\n"}, "home ␛[H end6"},
	{[]string{"move \x1b[10;10Hend7\n\n"}, "move ␛[10;10Hend7"},
	{[]string{"up \x1b[A end8\n\n"}, "up ␛[A end8"},
	{[]string{"dcs \x1bP1$qINJDCS\x1b", "\\ end9\n\n"}, "dcs ␛P1$qINJDCS␛\\ end9"},
	{[]string{"apc \x1b_INJAPC\x1b\\ end10\n\n"}, "apc ␛_INJAPC␛\\ end10"},
	{[]string{"reset \x1bc end11\n\n"}, "reset ␛c end11"},
	{[]string{"c1 \u009b2J \u0090INJ end12\n\n"}, "c1 ⟨U+009B⟩2J ⟨U+0090⟩INJ end12"},
	{[]string{"bidi \u202eevil end13\n\n"}, "bidi ⟨U+202E⟩evil end13"},
	{[]string{"charref &#27;[2J end14\n\n"}, "charref ␛[2J end14"},
}

const (
	injectPrompt = "Show me PROMPT-MARK"
	injectBegin  = "Injection begins: BEGIN-MARK"
	injectEnd    = "Injection ends: END-MARK"
)

// injectionDeltas is the whole reply, delta by delta.
func injectionDeltas() []string {
	d := []string{injectBegin + "\n\n"}
	for _, in := range injections {
		d = append(d, in.deltas...)
	}
	return append(d, injectEnd)
}

// TestInjection streams terminal control sequences from the gateway, in the
// reply and in an error message, and checks in the terminal that none took
// effect: no paste buffer from OSC 52, the title unchanged, the screen not
// cleared or reset, no text drawn where a cursor move pointed, and the
// sequences shown as placeholders. It also checks the bytes parley wrote:
// none of the sequences (and no OSC 8 hyperlink, C1 control or bidi
// override) is in them. The control subtest sends the same bytes straight
// to the terminal and sees them take effect, which shows the checks can
// fail.
func TestInjection(t *testing.T) {
	t.Parallel()
	t.Run("control", func(t *testing.T) {
		t.Parallel()
		payload := filepath.Join(t.TempDir(), "payload")
		all := strings.Join(append([]string{"PROMPT-MARK\n"}, injectionDeltas()...), "")
		if err := os.WriteFile(payload, []byte(all), 0o600); err != nil {
			t.Fatal(err)
		}
		tm := startParley(t, launch{Width: 100, Height: 50, SetClipboard: true, command: []string{"cat", payload}})
		s := tm.waitText(releaseHint)
		if !strings.Contains(tm.must("list-buffers", "-F", "#{buffer_sample}"), "pwned") {
			t.Errorf("tmux made no paste buffer from the OSC 52: the clipboard check below proves nothing")
		}
		// tmux takes a title from OSC 0, OSC 2 and also APC (as screen does).
		if title := tm.display("#{pane_title}"); !strings.Contains(title, "INJ") {
			t.Errorf("the OSC 0/2 and APC did not set the title (%q): the title check proves nothing", title)
		}
		if strings.Contains(s, "PROMPT-MARK") || strings.Contains(s, "BEGIN-MARK") {
			t.Errorf("CSI 2J and ESC c did not clear the screen: the screen check proves nothing:\n%s", frame(s))
		}
		if problems := rawProblems([]byte(all)); len(problems) < 8 {
			t.Errorf("the raw-output check finds only %d problems in the raw attack: %v", len(problems), problems)
		}
	})

	t.Run("parley", func(t *testing.T) {
		t.Parallel()
		gw := apitest.New(t)
		gw.Enqueue(apitest.Reply{Deltas: injectionDeltas()})
		tm := startParley(t, launch{Width: 100, Height: 50, Gateway: gw, Config: chatConfig, SetClipboard: true})
		tm.waitText(composerReady)
		tm.send(injectPrompt)
		tm.waitText(injectEnd)
		s := tm.waitGone("writing")

		// The screen was neither cleared nor reset: what came before the
		// attack is still there, and so is the chat around it.
		for _, want := range []string{injectPrompt, injectBegin, injectEnd, composerReady} {
			if !strings.Contains(s, want) {
				t.Errorf("%q is gone from the screen:\n%s", want, frame(s))
			}
		}
		// Every sequence is visible as a placeholder, with the text after
		// it on the same row, right after it: no cursor moved.
		rows := lines(s)
		for _, in := range injections {
			if !containsRow(rows, in.shown) {
				t.Errorf("no row shows %q:\n%s", in.shown, frame(s))
			}
		}
		if strings.Contains(s, "pwned") {
			t.Errorf("the OSC 52 payload was decoded:\n%s", frame(s))
		}
		checkNoEffect(t, tm, "the reply", "end14")

		// An error message from the gateway goes through the same sanitiser.
		gw.Enqueue(apitest.Reply{
			Status:       400,
			ErrorMessage: "Bad \x1b]2;ERROR-TITLE\x07request \x1b]52;c;cHduZWQ=\x07 \x1b[2J\x1b[Hhere ERROR-MARK",
		})
		tm.send("Once more")
		s = tm.waitText("ERROR-MARK")
		for _, want := range []string{"␛]2;ERROR-TITLE␇request", "␛]52;c;cHduZWQ=␇", "␛[2J␛[Hhere", injectBegin} {
			if !strings.Contains(s, want) {
				t.Errorf("the error shows no %q:\n%s", want, frame(s))
			}
		}
		checkNoEffect(t, tm, "the error", "ERROR-MARK")
	})
}

// checkNoEffect checks that no attack reached the terminal: no paste
// buffer, parley's own title, and none of the sequences in parley's output
// up to the moment mark (text on the screen) was written.
func checkNoEffect(t *testing.T, tm *term, what, mark string) {
	t.Helper()
	if bufs := tm.must("list-buffers", "-F", "#{buffer_name}: #{buffer_sample}"); bufs != "" {
		t.Errorf("after %s, tmux has paste buffers (an OSC 52 took effect):\n%s", what, bufs)
	}
	if title := tm.display("#{pane_title}"); strings.Contains(title, "INJ") || strings.Contains(title, "ERROR-TITLE") {
		t.Errorf("after %s, the pane title is the injected one: %q", what, title)
	}
	// pipe-pane copies asynchronously; what the screen shows was written
	// before, and is recorded by now or very soon after.
	var problems []string
	waitUntil(t, "parley's output to be recorded", func() bool {
		raw := tm.rawOutput()
		problems = rawProblems(raw)
		return bytes.Contains(raw, []byte(mark)) || len(problems) > 0
	})
	for _, p := range problems {
		t.Errorf("after %s, parley wrote %s", what, p)
	}
}

// rawProblems lists the attacks found as bytes in a program's output:
// the injected sequences themselves (the program's own cursor moves and
// screen clears are fine, its own title too), any OSC 8 hyperlink or OSC
// 52 clipboard write, C1 controls and bidi controls.
func rawProblems(raw []byte) []string {
	var found []string
	for _, seq := range []struct{ bytes, name string }{
		{"\x1b]52;", "an OSC 52 clipboard write"},
		{"\x1b]8;", "an OSC 8 hyperlink"},
		{"\x1b]0;INJECTED", "the injected OSC 0 title"},
		{"\x1b]2;INJECTED", "the injected OSC 2 title"},
		{"\x1b]2;ERROR-TITLE", "the error's OSC 2 title"},
		{"\x1bP1$qINJDCS", "the injected DCS"},
		{"\x1b_INJAPC", "the injected APC"},
		{"\x1bc", "a terminal reset (ESC c)"},
		{"\x1b[10;10Hend7", "text drawn at the injected cursor position"},
	} {
		if bytes.Contains(raw, []byte(seq.bytes)) {
			found = append(found, seq.name+" "+strconv.QuoteToASCII(seq.bytes))
		}
	}
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		switch {
		case r == utf8.RuneError && n == 1 && raw[i] >= 0x80 && raw[i] <= 0x9f:
			found = append(found, "a raw 8-bit C1 byte "+strconv.QuoteToASCII(string(raw[i:i+1])))
		case r >= 0x80 && r <= 0x9f:
			found = append(found, "a C1 control "+strconv.QuoteToASCII(string(r)))
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			found = append(found, "a bidi control "+strconv.QuoteToASCII(string(r)))
		}
		i += n
	}
	return found
}

// containsRow reports whether one row of the screen contains text.
func containsRow(rows []string, text string) bool {
	for _, r := range rows {
		if strings.Contains(r, text) {
			return true
		}
	}
	return false
}
