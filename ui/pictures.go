package ui

import (
	"image/color"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/ui/preview"
	"parley/ui/transcript"
)

// pictures is the root's side of image previews: how they are drawn, the
// cache the commands render into (shared by the file picker, the
// transcript and the image pane), and the kitty pictures the terminal
// holds. Only Update changes it.
type pictures struct {
	// setting is the images setting ("auto", "blocks", "kitty", "off");
	// mode is how pictures are drawn, chosen from it at start and once
	// more when tmux has said what terminal it runs in.
	setting string
	mode    preview.Mode
	cache   *preview.Cache
	// sent are the kitty pictures written to the terminal: each is
	// transmitted once, before the first frame that shows it.
	sent preview.Transmitted
	// asked are the transcript's pictures being made, so a picture is
	// asked for once.
	asked map[transcript.PictureKey]bool
}

func newPictures(setting string, getenv func(string) string) pictures {
	return pictures{
		setting: setting,
		mode:    preview.Select(setting, getenv),
		cache:   preview.NewCache(0, 0),
		sent:    preview.Transmitted{},
		asked:   map[transcript.PictureKey]bool{},
	}
}

// previewOptions are how previews are drawn: the mode chosen at start, the
// terminal's colour profile (kitty's placeholders carry the picture's id in
// a colour, so they must be written in colours the terminal keeps; half
// blocks are drawn in true colour and Bubble Tea lowers them), and the
// background transparent pixels are laid over.
func (m *Model) previewOptions() preview.Options {
	o := preview.Options{Mode: m.pics.mode, Profile: colorprofile.TrueColor, Background: color.Black}
	if m.pics.mode.IsKitty() && m.term.profile > colorprofile.NoTTY {
		o.Profile = m.term.profile
	}
	if m.ctx.NoColor {
		o.Profile = colorprofile.Ascii
	}
	if !m.ctx.Theme.Dark {
		o.Background = color.White
	}
	return o
}

// transmit returns what the terminal must receive before a frame shows r
// (a kitty picture's first transmit), written outside the frame.
func (m *Model) transmit(r preview.Rendered) tea.Cmd {
	if seq := m.pics.sent.Need(r); seq != "" {
		return tea.Raw(seq)
	}
	return nil
}

// transcriptPictureMsg brings a picture of an image a user sent.
type transcriptPictureMsg struct {
	key transcript.PictureKey
	r   preview.Rendered
	err error
}

// askPictures starts the renderings the transcript is waiting for: a
// cached one is handed over at once, the others are made in commands.
func (m *Model) askPictures() tea.Cmd {
	reqs := m.tr.TakePictureRequests()
	if len(reqs) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	opts := m.previewOptions()
	for _, rq := range reqs {
		k := rq.Key
		if m.pics.asked[k] {
			continue
		}
		if r, ok := m.pics.cache.Get(k.Sum, k.Cols, k.Rows, opts); ok {
			cmds = append(cmds, m.transmit(r))
			m.tr.SetPicture(k, r.Lines)
			continue
		}
		m.pics.asked[k] = true
		src, cache := preview.Source{Data: rq.Data, Sum: k.Sum}, m.pics.cache
		cmds = append(cmds, func() tea.Msg {
			r, err := cache.Render(src, k.Cols, k.Rows, opts)
			return transcriptPictureMsg{key: k, r: r, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// pictureArrived puts a finished picture under its message. A picture that
// cannot be made leaves the chip alone: the image was sent, and the chip
// says what it was.
func (m *Model) pictureArrived(msg transcriptPictureMsg) tea.Cmd {
	delete(m.pics.asked, msg.key)
	if msg.err != nil {
		m.tr.SetPicture(msg.key, nil)
		return nil
	}
	cmd := m.transmit(msg.r)
	m.tr.SetPicture(msg.key, msg.r.Lines)
	return cmd
}

// tmuxProbedMsg is what the tmux server said about the terminal it runs in.
type tmuxProbedMsg struct {
	t   preview.Tmux
	err error
}

// probeTmux asks tmux, in a command at start, whether the terminal behind
// it draws kitty pictures (auto only: "kitty" and "blocks" are taken as
// said). A failed probe keeps half blocks.
func (m *Model) probeTmux() tea.Cmd {
	getenv, ctx := m.opts.Getenv, m.base
	if getenv("TMUX") == "" || m.pics.mode == preview.Off || !strings.EqualFold(m.pics.setting, preview.SettingAuto) && m.pics.setting != "" {
		return nil
	}
	return func() tea.Msg {
		t, err := preview.ProbeTmux(ctx, getenv)
		return tmuxProbedMsg{t: t, err: err}
	}
}

// tmuxProbed switches to kitty pictures when tmux passes them through.
func (m *Model) tmuxProbed(msg tmuxProbedMsg) {
	if msg.err != nil {
		return
	}
	mode := preview.SelectProbed(m.pics.setting, m.opts.Getenv, msg.t)
	if mode == m.pics.mode {
		return
	}
	m.pics.mode = mode
	m.tr.ForgetPictures()
}

// transmitted reports whether r can be shown now: it is no kitty picture,
// or the terminal has it.
func (p *pictures) transmitted(r preview.Rendered) bool {
	if r.ID == 0 {
		return true
	}
	_, ok := p.sent[r.ID]
	return ok
}

// pictureRequest is a picture a pane waits for: src drawn into w×h cells,
// named key.
type pictureRequest struct {
	key  string
	src  preview.Source
	w, h int
}

// panePictureMsg brings a picture a pane asked for.
type panePictureMsg struct {
	key string
	r   preview.Rendered
	err error
}

// askPanePicture makes the picture the side pane waits for, in a command.
func (m *Model) askPanePicture() tea.Cmd {
	p, ok := m.pane.(pictureWanter)
	if !ok {
		return nil
	}
	req, ok := p.wantedPicture()
	if !ok {
		return nil
	}
	cache, opts := m.pics.cache, m.previewOptions()
	return func() tea.Msg {
		r, err := cache.Render(req.src, req.w, req.h, opts)
		return panePictureMsg{key: req.key, r: r, err: err}
	}
}

// panePictureArrived hands a finished picture to the pane (after its
// kitty transmit).
func (m *Model) panePictureArrived(msg panePictureMsg) tea.Cmd {
	p, ok := m.pane.(pictureWanter)
	if !ok {
		return nil
	}
	p.takePicture(msg)
	if msg.err != nil {
		return nil
	}
	return m.transmit(msg.r)
}
