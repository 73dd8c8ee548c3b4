package preview

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi/kitty"

	"parley/media/mediatest"
)

// showMsg says the transmit has been written and the preview may show.
type showMsg struct{}

// showModel is the way the root shows a kitty preview: the transmit goes
// out with tea.Raw, and the placeholders show only after it (tea.Sequence
// delivers showMsg once the raw write was queued, and Bubble Tea flushes
// raw output before the frame).
type showModel struct {
	r     Rendered
	sent  Transmitted
	shown bool
}

func (m *showModel) Init() tea.Cmd {
	if seq := m.sent.Need(m.r); seq != "" {
		return tea.Sequence(tea.Raw(seq), func() tea.Msg { return showMsg{} })
	}
	return func() tea.Msg { return showMsg{} }
}

func (m *showModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case showMsg:
		m.shown = true
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *showModel) View() tea.View {
	if !m.shown {
		return tea.NewView("waiting")
	}
	v := tea.NewView(strings.Join(m.r.Lines, "\n"))
	v.AltScreen = true
	return v
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runProgram shows r in a real Bubble Tea program writing to a buffer and
// returns everything it wrote, once the screen holds want.
func runProgram(t *testing.T, r Rendered, w, h int, profile colorprofile.Profile, want string) string {
	t.Helper()
	in, inW := io.Pipe()
	out := &syncBuffer{}
	p := tea.NewProgram(&showModel{r: r, sent: Transmitted{}},
		tea.WithInput(in), tea.WithOutput(out), tea.WithWindowSize(w, h), tea.WithColorProfile(profile))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			p.Kill()
			t.Fatalf("the screen never showed %q; it got %q", want, out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := inW.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatal("the program did not quit")
	}
	return out.String()
}

// Through Bubble Tea's cell renderer, the kitty picture arrives whole:
// the transmit once, before any placeholder, and every placeholder cell
// with its row and column marks and the id's colour.
func TestKittyThroughBubbleTea(t *testing.T) {
	for _, c := range []struct {
		name    string
		mode    Mode
		profile colorprofile.Profile
	}{
		{"kitty", Kitty, colorprofile.TrueColor},
		{"kitty, 256 colours", Kitty, colorprofile.ANSI256},
		{"tmux", KittyTmux, colorprofile.TrueColor},
	} {
		data := mediatest.PNG(t, mediatest.Photo(120, 60))
		indexed := c.mode == KittyTmux || c.profile != colorprofile.TrueColor
		// Seeds that give the id a top byte of 5, to exercise the third mark.
		seed := uint32(5*0xFFFFFF + 100)
		if indexed {
			seed = 5*240 + 10
		}
		r, err := render(data, 12, 4, Options{Mode: c.mode, Profile: c.profile}, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.ID>>24 != 5 {
			t.Fatalf("id %#x", r.ID)
		}
		cell := func(row, col int) string {
			return string([]rune{kitty.Placeholder, kitty.Diacritic(row), kitty.Diacritic(col), kitty.Diacritic(5)})
		}
		last := cell(r.Rows-1, r.Cols-1)
		out := runProgram(t, r, 12, 4, c.profile, last)
		if strings.Count(out, r.Transmit) != 1 {
			t.Errorf("%s: the transmit was written %d times", c.name, strings.Count(out, r.Transmit))
		}
		if ti, pi := strings.Index(out, r.Transmit), strings.IndexRune(out, kitty.Placeholder); ti < 0 || pi < ti {
			t.Errorf("%s: placeholders (at %d) before the transmit (at %d)", c.name, pi, ti)
		}
		for row := range r.Rows {
			for col := range r.Cols {
				if !strings.Contains(out, cell(row, col)) {
					t.Errorf("%s: cell %d,%d missing", c.name, row, col)
				}
			}
		}
		colour := "38;2;" + strconv.Itoa(int(r.ID>>16&0xff)) + ";" + strconv.Itoa(int(r.ID>>8&0xff)) + ";" + strconv.Itoa(int(r.ID&0xff))
		if indexed {
			colour = "38;5;" + strconv.Itoa(int(r.ID&0xff))
		}
		if !strings.Contains(out, colour) {
			t.Errorf("%s: the id's colour %q is not on the screen", c.name, colour)
		}
	}
}

// Half blocks keep their colours through the renderer too.
func TestBlocksThroughBubbleTea(t *testing.T) {
	r, err := Render(knownPNG(t), 4, 2, Options{Mode: Blocks, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	out := runProgram(t, r, 4, 2, colorprofile.TrueColor, "200;100;50")
	for _, c := range []string{"255;0;0", "0;255;0", "0;0;255", "10;20;30", "128;128;128", "▀"} {
		if !strings.Contains(out, c) {
			t.Errorf("%q is not on the screen", c)
		}
	}
}
