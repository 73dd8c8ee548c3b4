package browser

import (
	"context"
	"strings"

	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/session"
	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

func testCtx(t testing.TB) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 100, Height: 30, Theme: th, Styles: th.Styles(false), Keys: keys.Default()}
}

// clock is the tests' fixed "now"; sessions are made around it.
var clock = time.Date(2026, 11, 26, 15, 0, 0, 0, time.Local)

// openStore opens a real history database in a temporary directory.
func openStore(t testing.TB) *session.Store {
	t.Helper()
	st, err := session.Open(context.Background(), t.TempDir(), session.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// addSession records a conversation of one question and its answer,
// titled title ("" leaves it untitled), and returns its id.
func addSession(t testing.TB, st *session.Store, title, question, answer string) string {
	t.Helper()
	rec := st.NewRecorder(context.Background())
	defer rec.Close()
	c := conversation.New(conversation.Options{Listeners: []conversation.Listener{rec}, Now: func() time.Time { return clock }})
	turn, err := c.Begin(&conversation.UserInput{Text: question}, conversation.TurnOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	c.Receive(turn, answer, nil, "stop")
	if err := c.Close(turn, nil); err != nil {
		t.Fatal(err)
	}
	c.SetTitle(title)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return c.ID()
}

// open makes a browser over st at w×h and lets it read the sessions.
func open(t testing.TB, st Store, w, h int, opts Options) *Browser {
	t.Helper()
	opts.Store = st
	opts.Now = func() time.Time { return clock }
	if opts.Debounce == 0 {
		opts.Debounce = time.Millisecond
	}
	b, cmd := New(testCtx(t), opts)
	b.SetSize(w, h)
	drive(t, b, cmd)
	return b
}

// drive runs cmd and hands its messages back to the browser, as the
// root would, until no command is left; it returns the last result that
// asks something of the root.
func drive(t testing.TB, b *Browser, cmd tea.Cmd) Result {
	t.Helper()
	var last Result
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			res, next := b.update(msg)
			if res.Action != None {
				last = res
			}
			queue = append(queue, next)
		}
	}
	return last
}

// key decodes the bytes a terminal sends for one key.
func key(t testing.TB, seq string) tea.KeyPressMsg {
	t.Helper()
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(seq))
	k, ok := ev.(uv.KeyPressEvent)
	if !ok || n != len(seq) {
		t.Fatalf("%q decodes to %T", seq, ev)
	}
	return tea.KeyPressMsg(k)
}

// Key sequences a terminal sends.
const (
	esc, enter   = "\x1b", "\r"
	up, down     = "\x1b[A", "\x1b[B"
	ctrlR, ctrlX = "\x12", "\x18"
	ctrlL, ctrlU = "\x0c", "\x15"
	ctrlW, ctrlE = "\x17", "\x05"
	ctrlA        = "\x01"
)

// press sends one key and runs what it starts; it returns the result.
func press(t testing.TB, b *Browser, seq string) Result {
	t.Helper()
	res, cmd := b.update(key(t, seq))
	if r := drive(t, b, cmd); r.Action != None {
		return r
	}
	return res
}

// typeText types s a key at a time, running what each key starts.
func typeText(t testing.TB, b *Browser, s string) {
	t.Helper()
	for _, r := range s {
		press(t, b, string(r))
	}
}

func plain(s string) string { return ansi.Strip(s) }

func requireArea(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, plain(view))
	}
	for i, l := range lines {
		if got := lipgloss.Width(l); got != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, got, w, plain(l))
		}
	}
}

// requireInert fails when a view carries anything but SGR sequences and
// printable text.
func requireInert(t testing.TB, view string) {
	t.Helper()
	for _, r := range plain(view) {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("raw control %U in the view: %q", r, view)
		}
	}
}

// slowStore is a real store whose Search waits for its context to end,
// reporting each call's context, so tests can see queries cancelled.
type slowStore struct {
	*session.Store
	started chan context.Context
}

func newSlowStore(t testing.TB) *slowStore {
	return &slowStore{Store: openStore(t), started: make(chan context.Context, 16)}
}

func (s *slowStore) Search(ctx context.Context, q string, limit int) ([]session.Hit, error) {
	s.started <- ctx
	<-ctx.Done()
	return nil, ctx.Err()
}
