package termprobe

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// pipeTerminal is a terminal made of two pipes: what ask writes comes out
// of written, and what the test writes to answers is what ask reads.
type pipeTerminal struct {
	r *os.File
	w *os.File
}

func (p pipeTerminal) Read(b []byte) (int, error)        { return p.r.Read(b) }
func (p pipeTerminal) Write(b []byte) (int, error)       { return p.w.Write(b) }
func (p pipeTerminal) SetReadDeadline(t time.Time) error { return p.r.SetReadDeadline(t) }

func newPipeTerminal(t *testing.T) (pipeTerminal, io.Reader, io.Writer) {
	t.Helper()
	ar, aw, err := os.Pipe() // answers: the test writes, ask reads
	if err != nil {
		t.Fatal(err)
	}
	qr, qw, err := os.Pipe() // queries: ask writes, the test reads
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ar.Close(); aw.Close(); qr.Close(); qw.Close() })
	return pipeTerminal{r: ar, w: qw}, qr, aw
}

// What kitty 0.26.5 answers, in pieces as a terminal may send them.
func TestAskReadsTheAnswers(t *testing.T) {
	term, queries, answers := newPipeTerminal(t)
	go func() {
		buf := make([]byte, len(Queries))
		_, _ = io.ReadFull(queries, buf)
		_, _ = io.WriteString(answers, "\x1bP>|kitty(0.26.5)\x1b\\\x1b_Gi=7;OK\x1b\\")
		time.Sleep(10 * time.Millisecond)
		_, _ = io.WriteString(answers, "\x1b[?1;0;256S\x1b[?2;0;2000;1200S\x1b[6;20;10t\x1b[?62;52;4c")
	}()
	f, err := ask(term, Queries, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := Facts{Version: "kitty(0.26.5)", Sixel: true, Attributes: []int{62, 52, 4}, KittyGraphics: true,
		SixelWidth: 2000, SixelHeight: 1200, Registers: 256, CellWidth: 10, CellHeight: 20, Answered: true}
	if f.Version != want.Version || f.Sixel != want.Sixel || !f.KittyGraphics || f.SixelWidth != 2000 ||
		f.SixelHeight != 1200 || f.Registers != 256 || f.CellWidth != 10 || f.CellHeight != 20 || !f.Answered {
		t.Errorf("facts %+v, want %+v", f, want)
	}
	if got := Identify(func(string) string { return "" }, f).String(); got != "kitty 0.26.5" {
		t.Errorf("identified as %q", got)
	}
}

// A terminal that answers nothing: ask gives up at its time limit with a
// sentence.
func TestAskTimesOut(t *testing.T) {
	term, queries, _ := newPipeTerminal(t)
	go func() { _, _ = io.Copy(io.Discard, queries) }()
	start := time.Now()
	_, err := ask(term, Queries, 150*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not answer within") {
		t.Errorf("no answer: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("waited %v", d)
	}
}

func TestTakeIgnoresOthers(t *testing.T) {
	var f Facts
	for _, ev := range []any{
		uv.KeyPressEvent{Code: 'a'},
		uv.KittyGraphicsEvent{Payload: []byte("OK")}, // another image's answer
		uv.UnknownCsiEvent("\x1b[?5;0;1S"),           // an attribute not asked
		uv.UnknownCsiEvent("\x1b[?2;3;0S"),           // a failure
		uv.CellSizeEvent{Width: 0, Height: 20},
	} {
		f.Take(ev)
	}
	if f.KittyGraphics || f.SixelWidth != 0 || f.CellWidth != 0 || f.Answered {
		t.Errorf("took %+v", f)
	}
	f.Take(uv.TerminalVersionEvent{Name: "evil\x1b]0;title\atext"})
	if f.Version != "evil]0;titletext" {
		t.Errorf("version kept as %q", f.Version)
	}
}

func TestAtLeast(t *testing.T) {
	cases := []struct {
		v, want string
		ok      bool
	}{
		{"0.26.5", "0.28", false}, {"0.28.0", "0.28", true}, {"0.28", "0.28", true}, {"0.35.2", "0.28", true},
		{"1.0", "0.28", true}, {"3.3a", "3.3", true}, {"", "0.28", false}, {"x.y", "0.28", false},
	}
	for _, c := range cases {
		if got := AtLeast(c.v, c.want); got != c.ok {
			t.Errorf("AtLeast(%q, %q) = %v", c.v, c.want, got)
		}
	}
}

// The kitty query goes only to terminals the environment says speak the
// protocol: inside tmux or GNU screen its APC would become the window's
// title, and others may show it.
func TestQueriesInMultiplexers(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, e := range [][]string{{"TMUX", "/tmp/t,1,0", "TERM", "xterm-kitty"}, {"STY", "1.x"}, {"TERM", "screen-256color"}, {"TERM", "tmux-256color"}, {"TERM", "xterm-256color"}} {
		q := QueriesFor(env(e...))
		if strings.Contains(q, "\x1b_") || !strings.HasSuffix(q, "\x1b[c") || !strings.HasPrefix(q, "\x1b[>0q") {
			t.Errorf("%v: %q", e, q)
		}
	}
	for _, e := range [][]string{{"TERM", "xterm-kitty"}, {"TERM", "xterm-256color", "TERM_PROGRAM", "WezTerm"}, {"KONSOLE_VERSION", "230805"}} {
		if q := QueriesFor(env(e...)); q != Queries {
			t.Errorf("%v: %q", e, q)
		}
	}
}
