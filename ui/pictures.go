package ui

import (
	"context"
	"image/color"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/ui/preview"
	"parley/ui/sidepane"
	"parley/ui/transcript"
	"parley/ui/uictx"
)

// pictures is the root's side of image previews: how they are drawn, the
// cache the commands render into (shared by the file picker, the
// transcript and the image pane), and the kitty pictures the terminal
// holds. Only Update changes it.
type pictures struct {
	// setting is the images setting ("auto", "kitty", "sixel", "iterm",
	// "blocks", "off");
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
	// known is what the terminal (and tmux) said; choice the mode and
	// terminal chosen from it (graphics.go).
	known  preview.Known
	choice preview.Choice
	// stage draws kitty direct placements, sixel and inline images; size
	// is the screen it last drew on, drawing says a draw is planned.
	stage   *preview.Stage
	size    [2]int
	drawing bool
	// cell is a cell's size in pixels from the window size (for sixel),
	// when the terminal did not say it.
	cell [2]int
	// tmuxAsked: tmux was asked (once, after the first frame).
	tmuxAsked bool
}

func newPictures(setting string, getenv func(string) string) pictures {
	choice := preview.Choose(setting, getenv, preview.Known{})
	return pictures{
		setting: setting,
		mode:    choice.Mode,
		choice:  choice,
		cache:   preview.NewCache(0, 0),
		sent:    preview.Transmitted{},
		asked:   map[transcript.PictureKey]bool{},
		stage:   preview.NewStage(choice.Mode),
	}
}

// previewOptions are how previews are drawn: the mode chosen at start, the
// terminal's colour profile (kitty's placeholders carry the picture's id in
// a colour, so they must be written in colours the terminal keeps; half
// blocks are drawn in true colour and Bubble Tea lowers them), and the
// background transparent pixels are laid over.
func (p *pictures) options(ctx *uictx.Context, profile colorprofile.Profile) preview.Options {
	o := preview.Options{Mode: p.mode, Profile: colorprofile.TrueColor, Background: color.Black}
	if p.mode.IsKitty() && profile > colorprofile.NoTTY {
		o.Profile = profile
	}
	if ctx.NoColor {
		o.Profile = colorprofile.Ascii
	}
	if !ctx.Theme.Dark {
		o.Background = color.White
	}
	o.CellWidth, o.CellHeight = p.known.Facts.CellWidth, p.known.Facts.CellHeight
	if o.CellWidth == 0 {
		o.CellWidth, o.CellHeight = p.cell[0], p.cell[1]
	}
	if n := p.known.Facts.Registers; n > 0 {
		o.Colors = n
	}
	o.SixelWidth, o.SixelHeight = p.known.Facts.SixelWidth, p.known.Facts.SixelHeight
	return o
}

// transmit returns what the terminal must receive before a frame shows r
// (a kitty picture's first transmit), written outside the frame, and
// makes a staged picture known to the Stage, which draws it.
func (p *pictures) transmit(r preview.Rendered) tea.Cmd {
	p.stage.Register(r)
	if seq := p.sent.Need(r); seq != "" {
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
func (p *pictures) ask(ctx context.Context, tr *transcript.Transcript, opts preview.Options) tea.Cmd {
	reqs := tr.TakePictureRequests()
	if len(reqs) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	for _, rq := range reqs {
		k := rq.Key
		if p.asked[k] {
			continue
		}
		if r, ok := p.cache.Get(k.Sum, k.Cols, k.Rows, opts); ok {
			cmds = append(cmds, p.transmit(r))
			tr.SetPicture(k, r.Lines)
			continue
		}
		p.asked[k] = true
		src, cache := preview.Source{Data: rq.Data, Sum: k.Sum}, p.cache
		cmds = append(cmds, func() tea.Msg {
			r, err := cache.RenderContext(ctx, src, k.Cols, k.Rows, opts)
			return transcriptPictureMsg{key: k, r: r, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// pictureArrived puts a finished picture under its message. A picture that
// cannot be made leaves the chip alone: the image was sent, and the chip
// says what it was.
func (p *pictures) arrived(msg transcriptPictureMsg, tr *transcript.Transcript) tea.Cmd {
	delete(p.asked, msg.key)
	if stopped(msg.err) {
		return nil // its conversation was left
	}
	if msg.err != nil {
		tr.SetPicture(msg.key, nil)
		return nil
	}
	cmd := p.transmit(msg.r)
	tr.SetPicture(msg.key, msg.r.Lines)
	return cmd
}

// tmuxProbedMsg is what the tmux server said about the terminal it runs in.
type tmuxProbedMsg struct {
	t   preview.Tmux
	err error
}

// panePictureMsg brings a picture the side pane asked for.
type panePictureMsg struct {
	key string
	r   preview.Rendered
	err error
}

// askPane makes the picture the side pane waits for, in a command.
func (p *pictures) askPane(ctx context.Context, pane sidepane.Pane, opts preview.Options) tea.Cmd {
	w, ok := pane.(sidepane.PictureWanter)
	if !ok {
		return nil
	}
	req, ok := w.WantedPicture()
	if !ok {
		return nil
	}
	cache := p.cache
	return func() tea.Msg {
		r, err := cache.RenderContext(ctx, req.Src, req.W, req.H, opts)
		return panePictureMsg{key: req.Key, r: r, err: err}
	}
}

// paneArrived hands a finished picture to the pane (after its kitty
// transmit), or the sentence saying why it could not be made.
func (p *pictures) paneArrived(msg panePictureMsg, pane sidepane.Pane) tea.Cmd {
	w, ok := pane.(sidepane.PictureWanter)
	if !ok {
		return nil
	}
	pic := sidepane.Picture{Key: msg.key, Lines: msg.r.Lines, Stopped: stopped(msg.err)}
	if msg.err != nil && !pic.Stopped {
		pic.Failed = userSentence(msg.err)
	}
	w.TakePicture(pic)
	if msg.err != nil {
		return nil
	}
	return p.transmit(msg.r)
}
