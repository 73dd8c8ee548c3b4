package ui

import (
	"context"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/ui/preview"
	"parley/ui/termprobe"
	"parley/ui/transcript"
)

// The terminal's side of pictures: what it is and what it draws (asked
// with the first frame, never before it), and the Stage that draws kitty
// direct placements, sixel and inline images beside the frame.

// probeTimeoutMsg ends the wait for the terminal's answers: what came by
// then decides.
type probeTimeoutMsg struct{}

// stageDrawMsg says the frame of generation gen has reached the screen, so
// the sixel or inline images it waits for can be drawn over it.
type stageDrawMsg struct{ gen uint64 }

// stageDrawDelay is how long after a frame its sixel or inline images are
// drawn: two frame intervals, so the frame that blanks their cells has been
// written first (Bubble Tea writes a view at most one interval after it
// changed, and raw output before the frame it writes with).
const stageDrawDelay = 2*time.Second/rendererFPS + 5*time.Millisecond

// probe asks the terminal what it is and draws, with the first frame
// (Bubble Tea writes raw output with the first frame, before it),
// and gives it termprobe.ProbeTimeout to answer. tmux is asked once the
// terminal has answered (answered).
func (p *pictures) probe(getenv func(string) string) tea.Cmd {
	return tea.Batch(
		tea.Raw(termprobe.QueriesFor(getenv)),
		tea.Tick(termprobe.ProbeTimeout, func(time.Time) tea.Msg { return probeTimeoutMsg{} }),
	)
}

// answered decides once the terminal has answered (or the wait ended),
// and asks tmux, when parley runs in it, about pictures and 24-bit colour
// (startColorProfile did not ask it): the answer to the queries written
// with the first frame means the first frame is out, so the tmux
// subprocess no longer competes with it.
func (p *pictures) answered(ctx context.Context, getenv func(string) string, tr *transcript.Transcript) tea.Cmd {
	cmd := p.choose(getenv, tr)
	if p.tmuxAsked || getenv("TMUX") == "" {
		return cmd
	}
	p.tmuxAsked = true
	return tea.Batch(cmd, p.probeTmux(ctx, getenv))
}

// update takes the terminal's answers, the end of the wait for them,
// tmux's answer and the Stage's draws; ok says msg was one of them.
// fewColours says the colour profile is below 24-bit and nobody pinned it
// (tmux's answer may raise it).
func (p *pictures) update(msg tea.Msg, base context.Context, getenv func(string) string, tr *transcript.Transcript, fewColours bool) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case probeTimeoutMsg:
		if p.known.Facts.Answered {
			return nil, true
		}
		p.known.Facts.Answered = true
		return p.answered(base, getenv, tr), true
	case tmuxProbedMsg:
		return p.tmuxProbed(msg, getenv, tr, fewColours), true
	case stageDrawMsg:
		return p.draw(msg), true
	}
	if !p.known.Facts.Take(msg) {
		return nil, false
	}
	if p.known.Facts.Answered {
		// DA1 came (or the wait ended and a late answer came): decide.
		return p.answered(base, getenv, tr), true
	}
	return nil, true
}

// choose picks the mode again from what is known now; pictures drawn the
// old way are made again the new way.
func (p *pictures) choose(getenv func(string) string, tr *transcript.Transcript) tea.Cmd {
	p.choice = preview.Choose(p.setting, getenv, p.known)
	if p.choice.Mode == p.mode {
		return nil
	}
	p.mode = p.choice.Mode
	tr.ForgetPictures()
	if out := p.stage.SetMode(p.mode); out != "" {
		return tea.Raw(out)
	}
	return nil
}

// probeTmux asks tmux, in a command, whether the terminal behind it draws
// kitty pictures and takes 24-bit colour.
func (p *pictures) probeTmux(ctx context.Context, getenv func(string) string) tea.Cmd {
	return func() tea.Msg {
		t, err := preview.ProbeTmux(ctx, getenv)
		return tmuxProbedMsg{t: t, err: err}
	}
}

// tmuxProbed takes tmux's answer: the mode again, and 24-bit colour for
// Bubble Tea's renderer and the theme when tmux draws it on its client
// and upgrade allows (the profile was found without asking tmux, so that
// the first frame did not wait for it).
func (p *pictures) tmuxProbed(msg tmuxProbedMsg, getenv func(string) string, tr *transcript.Transcript, upgrade bool) tea.Cmd {
	if msg.err != nil {
		return nil
	}
	p.known.Tmux = msg.t
	cmds := []tea.Cmd{p.choose(getenv, tr)}
	if msg.t.RGB && upgrade {
		cmds = append(cmds, func() tea.Msg { return tea.ColorProfileMsg{Profile: colorprofile.TrueColor} })
	}
	return tea.Batch(cmds...)
}

// stageFrame hands the composed frame to the Stage: the frame the terminal
// gets replaces it, kitty placements go out at once, and a draw of sixel
// or inline images is planned for after the frame is on screen.
func (p *pictures) stageFrame(frame *string, w, h int, tr *transcript.Transcript, output io.Writer) tea.Cmd {
	if !p.mode.Staged() {
		return nil
	}
	if w != p.size[0] || h != p.size[1] {
		// Bubble Tea clears the screen and paints it again on a resize.
		p.size = [2]int{w, h}
		p.stage.Cleared()
		p.readCellSize(output, tr)
	}
	out, now := p.stage.Frame(*frame)
	*frame = out
	var cmds []tea.Cmd
	if now != "" {
		cmds = append(cmds, tea.Raw(now))
	}
	if p.stage.Missing() {
		tr.ForgetPictures()
	}
	if gen, due := p.stage.Due(); due && !p.drawing {
		p.drawing = true
		cmds = append(cmds, tea.Tick(stageDrawDelay, func(time.Time) tea.Msg { return stageDrawMsg{gen: gen} }))
	}
	return tea.Batch(cmds...)
}

// readCellSize reads a cell's size in pixels from the terminal's window
// size (a terminal that answered XTWINOPS 16 has said it already), and
// has sixel pictures made again when it changed (a new font size).
func (p *pictures) readCellSize(output io.Writer, tr *transcript.Transcript) {
	if p.known.Facts.CellWidth > 0 {
		return
	}
	f, ok := output.(*os.File)
	if output == nil {
		f, ok = os.Stdout, true
	}
	if !ok {
		return
	}
	if w, h, ok := termprobe.CellSize(f); ok && [2]int{w, h} != p.cell {
		p.cell = [2]int{w, h}
		if p.mode == preview.Sixel {
			tr.ForgetPictures()
		}
	}
}

// draw writes the sixel or inline images still due, and plans the next
// draw when a newer frame moved them meanwhile.
func (p *pictures) draw(msg stageDrawMsg) tea.Cmd {
	p.drawing = false
	var cmds []tea.Cmd
	if seq := p.stage.Draw(msg.gen); seq != "" {
		cmds = append(cmds, tea.Raw(seq))
	}
	if gen, due := p.stage.Due(); due {
		p.drawing = true
		cmds = append(cmds, tea.Tick(stageDrawDelay, func(time.Time) tea.Msg { return stageDrawMsg{gen: gen} }))
	}
	return tea.Batch(cmds...)
}
