package ui

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/imagegen"
	"parley/media"
	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/slash"
)

// imageAsk is what the user asked for with /image, /edit or the image
// form, kept so a failed turn can be tried again as it was.
type imageAsk struct {
	prompt, model, size string
	n                   int
	// edit is the image an edit starts from (nil for a generation) and
	// mask the optional mask's bytes.
	edit *imageSource
	mask []byte
}

// imageSource is an image to edit: its bytes and what to call it.
type imageSource struct {
	name string
	data []byte
}

// imageRun is the image turn in flight.
type imageRun struct {
	id      int // the image turn's message
	cancel  context.CancelFunc
	started time.Time
	shown   time.Time // the time the status shows (advanced by imageTickMsg)
	what    string    // "generating 2 images with gpt-image-1 (1024x1024)"
	ask     imageAsk
}

// imagesMadeMsg brings the end of an image turn.
type imagesMadeMsg struct {
	id  int
	res imagegen.Result
	err error
}

// imageTickMsg moves the elapsed time in the status while images are made.
type imageTickMsg struct{ id int }

// imageTick is how often the elapsed time of an image turn is redrawn.
const imageTick = time.Second

// imageFlags are the options of /image.
func imageFlags() []slash.Flag {
	return []slash.Flag{
		{Name: "n", Value: "N", Usage: "how many images"},
		{Name: "size", Value: "WxH", Usage: "the size, e.g. 1024x1024"},
		{Name: "model", Value: "NAME", Usage: "the image model"},
	}
}

// imageModel is the model /image uses: --model, else image_model, else
// the only model known to generate; "" when the user must choose.
func (m *Model) imageModel(cap api.Capability) string {
	if cfg := m.opts.Config; cfg != nil && cfg.ImageModel != "" {
		if cap != api.CapImageEdit || m.catalog.Require(cfg.ImageModel, cap) == nil {
			return cfg.ImageModel
		}
	}
	if m.images.lastModel != "" && m.catalog.Require(m.images.lastModel, cap) == nil {
		return m.images.lastModel
	}
	if can := m.catalog.ModelsWith(cap); len(can) == 1 {
		return can[0]
	}
	return ""
}

// imageCommand runs /image PROMPT [--n N] [--size WxH] [--model NAME].
func (m *Model) imageCommand(inv slash.Invocation) tea.Cmd {
	ask, err := m.parseImageAsk(inv, api.CapImageGeneration)
	if err != nil {
		return m.refuseCommand(inv, err.Error())
	}
	if ask.model == "" {
		return m.openImageModelPicker(api.CapImageGeneration, ask)
	}
	if cmd, ok := m.checkImages(ask); !ok {
		m.keepCommand(inv)
		return cmd
	}
	return m.startImages(ask)
}

// refuseCommand says why a command line was refused and gives it back to
// the composer, so nothing typed is lost.
func (m *Model) refuseCommand(inv slash.Invocation, why string) tea.Cmd {
	m.keepCommand(inv)
	return m.notify(why, toastErr)
}

// keepCommand puts a refused command line back into an empty composer.
func (m *Model) keepCommand(inv slash.Invocation) {
	if !m.comp.empty() {
		return
	}
	line := "/" + inv.Name
	if inv.Args != "" {
		line += " " + inv.Args
	}
	m.comp.setValue(line)
}

// checkImages runs the checks of startImages that need no request, so a
// command can keep its line when they refuse.
func (m *Model) checkImages(ask imageAsk) (tea.Cmd, bool) {
	if _, err := imagegen.Plan(m.catalog, m.imageRequest(ask)); err != nil {
		return m.notify(userSentence(err), toastErr), false
	}
	return nil, true
}

// imageRequest is ask as the engine takes it.
func (m *Model) imageRequest(ask imageAsk) imagegen.Request {
	req := imagegen.Request{Prompt: ask.prompt, Model: ask.model, Size: ask.size, N: ask.n, Dir: m.opts.imageDir()}
	if ask.edit != nil {
		req.Edit = []api.ImageFile{{Name: filepath.Base(ask.edit.name), Data: ask.edit.data}}
		if ask.mask != nil {
			req.Mask = &api.ImageFile{Name: "mask.png", Data: ask.mask}
		}
	}
	return req
}

// parseImageAsk reads the prompt and options of /image or /edit; the
// model may stay "" (the user is then asked).
func (m *Model) parseImageAsk(inv slash.Invocation, cap api.Capability) (imageAsk, error) {
	ask := imageAsk{prompt: strings.TrimSpace(strings.Join(inv.Positional, " "))}
	if ask.prompt == "" {
		return ask, fmt.Errorf("%s needs a prompt: describe the image, e.g. %s", inv.Usage, exampleFor(cap))
	}
	n, err := inv.Flags.Int("n", 0, 1, 10)
	if err != nil {
		return ask, err
	}
	ask.n = n
	if inv.Flags.Has("size") {
		if _, _, err := inv.Flags.Size("size"); err != nil && !strings.EqualFold(inv.Flags.String("size"), "auto") {
			return ask, err
		}
		ask.size = strings.ToLower(inv.Flags.String("size"))
	}
	ask.model = inv.Flags.String("model")
	if ask.model == "" {
		ask.model = m.imageModel(cap)
	}
	return ask, nil
}

func exampleFor(cap api.Capability) string {
	if cap == api.CapImageEdit {
		return "/edit make the sky purple"
	}
	return "/image a red bicycle on a beach"
}

// startImages checks what was asked against what the model accepts (before
// any request: images cost money), starts the image turn, and makes the
// images in a command.
func (m *Model) startImages(ask imageAsk) tea.Cmd {
	if m.images.run != nil || m.stream.active != nil || m.turn.pendingSend {
		return m.notify(fmt.Sprintf("wait for the turn in flight to end, or press %s to stop it", firstKey(m.keyMap().Cancel, "esc")), toastWarn)
	}
	if !m.clients.configured() {
		return m.notify(errNoGateway.Error(), toastErr)
	}
	job, err := imagegen.Plan(m.catalog, m.imageRequest(ask))
	if err != nil {
		return m.notify(userSentence(err), toastErr)
	}
	turn := conversation.ImageTurn{Size: job.Size, N: job.N}
	if ask.edit != nil {
		turn.From = ask.edit.name
	}
	id, err := m.conv.StartImages(ask.prompt, ask.model, turn)
	if err != nil {
		return m.notify(err.Error(), toastWarn)
	}
	ctx, cancel := context.WithCancel(m.base)
	now := m.now()
	m.images.run = &imageRun{id: id, cancel: cancel, started: now, shown: now, what: imagegen.Describe(job), ask: ask}
	m.images.lastModel = ask.model
	m.images.lastAsk = ask
	m.notes.dismiss()
	m.tr.Bottom()
	pool, clock := m.clients, m.opts.Now
	if clock == nil {
		clock = time.Now
	}
	return tea.Batch(
		func() tea.Msg {
			c, err := pool.get(job.Model)
			if err != nil {
				return imagesMadeMsg{id: id, err: err}
			}
			res, err := imagegen.Run(ctx, c, job, clock(), nil)
			return imagesMadeMsg{id: id, res: res, err: err}
		},
		tea.Tick(imageTick, func(time.Time) tea.Msg { return imageTickMsg{id: id} }),
	)
}

// imagesMade ends the image turn: its images are shown with their paths,
// or the error is shown in its place with the retry key.
func (m *Model) imagesMade(msg imagesMadeMsg) tea.Cmd {
	run := m.images.run
	if run == nil || run.id != msg.id {
		return nil // a cancelled turn's late answer
	}
	run.cancel()
	m.images.run = nil
	if msg.err != nil {
		text := userSentence(msg.err)
		var de *imagegen.DirError
		if errors.As(msg.err, &de) {
			text += "; choose another folder with image_dir in the config"
		}
		_ = m.conv.Fail(msg.id, text)
		return nil
	}
	atts := make([]api.Attachment, 0, len(msg.res.Saved))
	for i, s := range msg.res.Saved {
		atts = append(atts, savedAttachment(s, msg.res.Images[i]))
	}
	_ = m.conv.FinishImages(msg.id, atts, msg.res.Notes)
	return m.notify(fmt.Sprintf("saved %s in %s", imagegen.Plural(len(atts), "image"), cells.OneLine(homeShort(m.opts.imageDir(), m.opts.Getenv("HOME")))), toastOK)
}

// savedAttachment is a saved image as the conversation keeps it: named by
// its path, with its bytes (so the history keeps it when the file moves).
func savedAttachment(s media.SavedImage, v media.Verified) api.Attachment {
	return api.Attachment{
		Name:   s.Path,
		MIME:   s.Format.MIME(),
		SHA256: fmt.Sprintf("%x", sha256.Sum256(v.Data)),
		Width:  s.Width, Height: s.Height,
		Bytes: len(v.Data),
		Data:  v.Data,
	}
}

// stopImages abandons the image turn in flight: nothing is saved.
func (m *Model) stopImages() tea.Cmd {
	run := m.images.run
	if run == nil {
		return nil
	}
	run.cancel()
	m.images.run = nil
	_ = m.conv.Interrupt(run.id)
	return m.notify("stopped; no image was saved", toastInfo)
}

// imageTicked moves the status's elapsed time.
func (m *Model) imageTicked(msg imageTickMsg) tea.Cmd {
	if m.images.run == nil || m.images.run.id != msg.id {
		return nil
	}
	m.images.run.shown = m.now()
	return tea.Tick(imageTick, func(time.Time) tea.Msg { return imageTickMsg{id: msg.id} })
}

// imageSeg is the status while images are made: what, for how long, and
// how to stop.
func (r *imageRun) seg(stopKey string) statusSeg {
	return statusSeg{
		text: fmt.Sprintf("%s %s · %s · %s stops", spinnerFrames[int(r.shown.Sub(r.started)/time.Second)%len(spinnerFrames)],
			cells.OneLine(r.what), formatElapsed(r.shown.Sub(r.started)), stopKey),
		role: roleBusy, flex: true,
	}
}

// retryImages makes the last image turn again when it failed or was
// stopped: the turn is replaced by a new one asking the same.
func (m *Model) retryImages() (tea.Cmd, bool) {
	n := m.conv.Len()
	if n == 0 {
		return nil, false
	}
	last := m.conv.At(n - 1)
	if !last.IsImages() || last.State == conversation.StateDone || last.State == conversation.StateStreaming {
		return nil, false
	}
	ask := m.images.lastAsk
	if ask.prompt != last.Text {
		// Reopened from the history: ask again as the turn says.
		ask = imageAsk{prompt: last.Text, model: last.Model}
		if last.Image != nil {
			ask.size, ask.n = last.Image.Size, last.Image.N
			if last.Image.From != "" {
				return m.notify("the image this edit started from is not at hand any more; select it in the image pane and press e", toastInfo), true
			}
		}
	}
	m.conv.RemoveLast(last.ID)
	return m.startImages(ask), true
}

// userSentence is an error as the chat shows it: one line, sanitised.
func userSentence(err error) string {
	return cells.OneLine(termsafe.Sanitize(err.Error()))
}

// homeShort writes a path under the home folder with "~".
func homeShort(path, home string) string {
	if home != "" && (path == home || strings.HasPrefix(path, home+string(filepath.Separator))) {
		return "~" + path[len(home):]
	}
	return path
}

// imageRunner is the image turn in flight (nil when none) and the last
// model and request asked for, for the next /image and for a retry.
type imageRunner struct {
	run       *imageRun
	lastModel string
	lastAsk   imageAsk
}
