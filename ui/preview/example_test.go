package preview_test

import (
	"context"
	"image/color"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/ui/preview"
)

// previewMsg carries a finished preview (or why there is none) to Update.
type previewMsg struct {
	key string
	r   preview.Rendered
	err error
}

// shownMsg arrives once a kitty picture's transmit has been written.
type shownMsg struct {
	key string
	r   preview.Rendered
}

// root is the part of a root model that shows previews.
type root struct {
	cache   *preview.Cache      // shared with commands; safe for concurrent use
	sent    preview.Transmitted // changed only in Update
	shown   map[string]preview.Rendered
	failed  map[string]error
	pending map[string]bool
	opts    preview.Options
}

// want is called from Update when a part of the screen needs the image src
// at w×h cells: a cached preview is shown at once; otherwise a command
// makes it, never Update.
func (m *root) want(key string, src preview.Source, w, h int) tea.Cmd {
	if r, ok := m.cache.Get(src.Sum, w, h, m.opts); ok {
		return m.show(key, r)
	}
	if m.pending[key] {
		return nil
	}
	m.pending[key] = true
	cache, opts := m.cache, m.opts
	return func() tea.Msg {
		r, err := cache.Render(src, w, h, opts)
		return previewMsg{key: key, r: r, err: err}
	}
}

func (m *root) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case previewMsg:
		delete(m.pending, msg.key)
		if msg.err != nil {
			m.failed[msg.key] = msg.err // shown as a notice: a sentence for users
			return nil
		}
		return m.show(msg.key, msg.r)
	case shownMsg:
		m.shown[msg.key] = msg.r
	}
	return nil
}

// show puts r where key is drawn. A kitty picture goes to the terminal
// first, outside the frame (tea.Raw); tea.Sequence makes its placeholders
// appear only after the transmit was written. The picture key showed
// before is freed in the terminal when nothing else shows it.
func (m *root) show(key string, r preview.Rendered) tea.Cmd {
	var cmds []tea.Cmd
	if old, ok := m.shown[key]; ok && old.ID != r.ID && !m.showsElsewhere(key, old.ID) {
		if del := m.sent.Forget(old); del != "" {
			cmds = append(cmds, tea.Raw(del))
		}
	}
	if seq := m.sent.Need(r); seq != "" {
		cmds = append(cmds, tea.Sequence(tea.Raw(seq), func() tea.Msg { return shownMsg{key, r} }))
		return tea.Batch(cmds...)
	}
	m.shown[key] = r
	return tea.Batch(cmds...)
}

func (m *root) showsElsewhere(key string, id uint32) bool {
	for k, r := range m.shown {
		if k != key && r.ID == id {
			return true
		}
	}
	return false
}

// Example shows the calls a root model makes: the mode once at start-up
// from the environment, again when the terminal has answered the probe
// (termprobe.Queries, written with the first frame) and, in a command
// after the first frame when TMUX is set, tmux; the options from the
// program's colour profile and the terminal's background, then previews
// through one cache.
func Example() {
	setting := "auto" // images = "auto" in the config; --no-images means "off"
	mode := preview.Select(setting, os.Getenv)
	if os.Getenv("TMUX") != "" && setting == preview.SettingAuto {
		// In a tea.Cmd at start-up; the answer comes back as a message.
		if t, err := preview.ProbeTmux(context.Background(), os.Getenv); err == nil {
			mode = preview.Choose(setting, os.Getenv, preview.Known{Tmux: t}).Mode
		}
	}
	m := &root{
		cache:   preview.NewCache(0, 0),
		sent:    preview.Transmitted{},
		shown:   map[string]preview.Rendered{},
		failed:  map[string]error{},
		pending: map[string]bool{},
		opts: preview.Options{
			Mode:       mode,
			Profile:    colorprofile.TrueColor,      // the profile given to tea.WithColorProfile
			Background: color.RGBA{30, 30, 46, 255}, // from tea.BackgroundColorMsg
		},
	}
	data, err := os.ReadFile("screenshot.png") // in a real root: media.ReadImageFile, in a command
	if err != nil {
		return
	}
	src := preview.NewSource(data) // hash once, keep with the attachment
	if cmd := m.want("chip-1", src, 40, 12); cmd != nil {
		_ = m.update(cmd())
	}
}
