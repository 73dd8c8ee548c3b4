package ui

import (
	"errors"
	"fmt"
	"image"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/imagegen"
	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/overlay"
	"parley/ui/preview"
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
	// again is the image turn these images are made again for (0: a new
	// turn): the new turn is its alternative, and it stays.
	again int
}

// imageSource is an image to edit: its bytes and what to call it.
type imageSource struct {
	name string
	data []byte
}

// imagesMadeMsg brings the end of an image turn.
type imagesMadeMsg struct{ chat.ImagesMade }

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

// imageModel is the model /image uses: image_model (when it can do cap),
// else the model used last, else the only model known to do cap; "" when
// the user must choose.
func (r *imageRunner) model(cat *api.Catalog, cfg *config.Config, cap api.Capability) string {
	if cfg != nil && cfg.ImageModel != "" {
		if cap != api.CapImageEdit || cat.Require(cfg.ImageModel, cap) == nil {
			return cfg.ImageModel
		}
	}
	if r.lastModel != "" && cat.Require(r.lastModel, cap) == nil {
		return r.lastModel
	}
	if can := cat.ModelsWith(cap); len(can) == 1 {
		return can[0]
	}
	return ""
}

// parse reads the prompt and options of /image or /edit; the model may
// stay "" (the user is then asked).
func (r *imageRunner) parse(inv slash.Invocation, cap api.Capability, cat *api.Catalog, cfg *config.Config) (imageAsk, error) {
	ask := imageAsk{prompt: strings.TrimSpace(strings.Join(inv.Positional, " "))}
	if ask.prompt == "" {
		return ask, fmt.Errorf("%s needs a prompt: describe the image, e.g. %s", inv.Usage, exampleFor(cap))
	}
	ask.model = inv.Flags.String("model")
	if ask.model == "" {
		ask.model = r.model(cat, cfg, cap)
	}
	// --n is bounded by what the model makes per request: its max_n, 1
	// when that is not known (imagegen.CheckCount, as `parley image -n`).
	if inv.Flags.Has("n") {
		n, err := strconv.Atoi(strings.TrimSpace(inv.Flags["n"]))
		if err != nil {
			// Not a number: the flags say so, with an example.
			_, err = inv.Flags.Int("n", 0, 1, 1)
			return ask, err
		}
		if err := imagegen.CheckCount(cat, ask.model, "--n", n); err != nil {
			return ask, err
		}
		ask.n = n
	}
	if inv.Flags.Has("size") {
		if _, _, err := inv.Flags.Size("size"); err != nil && !strings.EqualFold(inv.Flags.String("size"), "auto") {
			return ask, err
		}
		ask.size = strings.ToLower(inv.Flags.String("size"))
	}
	return ask, nil
}

func exampleFor(cap api.Capability) string {
	if cap == api.CapImageEdit {
		return "/edit make the sky purple"
	}
	return "/image a red bicycle on a beach"
}

// imageRequest is ask as the engine takes it, saving into dir.
func imageRequest(ask imageAsk, dir string) imagegen.Request {
	req := imagegen.Request{Prompt: ask.prompt, Model: ask.model, Size: ask.size, N: ask.n, Dir: dir}
	if ask.edit != nil {
		req.Edit = []api.ImageFile{{Name: filepath.Base(ask.edit.name), Data: ask.edit.data}}
		if ask.mask != nil {
			req.Mask = &api.ImageFile{Name: "mask.png", Data: ask.mask}
		}
	}
	return req
}

// imageLine is what /image or /edit asked for, read from its line: the
// images to make, the mask to read first (an edit's --mask), or the
// sentence that refuses the line.
type imageLine struct {
	ask     imageAsk
	mask    string
	refused string
}

// command reads /image PROMPT [--n N] [--size WxH] [--model NAME]; the
// model may stay "" (the picker then asks for one).
func (r *imageRunner) command(inv slash.Invocation, cat *api.Catalog, cfg *config.Config, dir string) imageLine {
	ask, err := r.parse(inv, api.CapImageGeneration, cat, cfg)
	if err != nil {
		return imageLine{refused: err.Error()}
	}
	if ask.model != "" {
		if _, err := imagegen.Plan(cat, imageRequest(ask, dir)); err != nil {
			return imageLine{refused: userSentence(err)}
		}
	}
	return imageLine{ask: ask}
}

// askImages starts what /image or /edit asked for: a refused line goes
// back to the composer, so nothing typed is lost, and the notice says
// why; a mask is read and checked first (editMaskMsg).
func (m *Model) askImages(inv slash.Invocation, line imageLine) tea.Cmd {
	switch {
	case line.refused != "":
		m.comp.keepLine(typedLine(inv))
		return m.notes.show(line.refused, toastErr)
	case line.mask != "":
		return readMask(line.ask, line.mask)
	}
	// A turn in flight refuses the images with a warning: the line
	// stays for when it is over.
	before := m.notes.gen
	cmd := m.startImages(line.ask)
	if kind, shown := m.notes.shownSince(before); shown && kind >= toastWarn {
		m.comp.keepLine(typedLine(inv))
	}
	return cmd
}

// startImages checks what was asked against what the model accepts (before
// any request: images cost money), starts the image turn, and makes the
// images in a command. Without a model, the picker asks for one first.
func (m *Model) startImages(ask imageAsk) tea.Cmd {
	if ask.model == "" {
		// The model picker asks which model makes them, among those that
		// can.
		cap := api.CapImageGeneration
		if ask.edit != nil {
			cap = api.CapImageEdit
		}
		return m.openModels(chooseImageModel{ask: ask}, overlay.ModelList{Can: cap})
	}
	if m.eng.Busy() || m.eng.Waiting() != chat.WaitNone {
		return m.notes.show(fmt.Sprintf("wait for the turn in flight to end, or press %s to stop it", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	job, err := imagegen.Plan(m.eng.Catalog(), imageRequest(ask, m.opts.imageDir()))
	if err != nil {
		return m.notes.show(userSentence(err), toastErr)
	}
	turn := conversation.ImageTurn{Size: job.Size, N: job.N}
	if ask.edit != nil {
		turn.From = ask.edit.name
	}
	run, err := m.eng.StartImages(job, ask.prompt, turn, ask.again)
	if err != nil {
		return m.notes.show(userSentence(err), toastWarn)
	}
	m.notes.dismiss()
	m.tr.List().Bottom()
	m.spin = spinner{shown: run.Started}
	m.images.lastModel = ask.model
	m.images.lastAsk = ask
	m.images.lastAsk.again = 0
	clock := m.opts.Now
	if clock == nil {
		clock = time.Now
	}
	cache := m.pics.cache
	return tea.Batch(
		func() tea.Msg {
			return imagesMadeMsg{run.Run(clock(), imagegen.RunOptions{
				Budget: cache.Budget(),
				// The pixels checked before saving become the picture the
				// transcript shows: the image is decoded once.
				Decoded: func(data []byte, img image.Image) { cache.Keep(preview.NewSource(data), img) },
			})}
		},
		tea.Tick(imageTick, func(time.Time) tea.Msg { return imageTickMsg{id: run.ID} }),
	)
}

// imageFailure words an image run's failure as the turn keeps it.
func imageFailure(err error) string {
	text := userSentence(err)
	var de *imagegen.DirError
	if errors.As(err, &de) {
		text += "; choose another folder with image_dir in the config"
	}
	return text
}

// stopImages is esc or ctrl+c while images are made.
func stopImages(eng *chat.Engine) noticeResult {
	if !eng.StopImages() {
		return noticeResult{}
	}
	return noticeResult{"stopped; no image was saved", toastInfo}
}

// imageSeg is the status while images are made: what, for how long, and
// how to stop.
func imageSeg(r *chat.ImageRun, now time.Time, stopKey string) statusSeg {
	took := max(now.Sub(r.Started), 0)
	return statusSeg{
		text: fmt.Sprintf("%s %s · %s · %s stops", spinnerFrames[int(took/time.Second)%len(spinnerFrames)],
			cells.OneLine(r.What), formatElapsed(took), stopKey),
		role: roleBusy, flex: true,
	}
}

// retryAsk is what to ask again when the last turn is an image turn that
// failed or was stopped (ok false otherwise); why is set when it cannot be
// asked again.
func (r *imageRunner) retryAsk(conv *conversation.Conversation) (ask imageAsk, why string, ok bool) {
	n := conv.Len()
	if n == 0 {
		return ask, "", false
	}
	last := conv.At(n - 1)
	if !last.IsImages() || last.State == conversation.StateDone || last.State == conversation.StateStreaming {
		return ask, "", false
	}
	ask = r.lastAsk
	if ask.prompt != last.Text {
		// Reopened from the history: ask again as the turn says.
		ask = imageAsk{prompt: last.Text, model: last.Model}
		if last.Image != nil {
			ask.size, ask.n = last.Image.Size, last.Image.N
			if last.Image.From != "" {
				return ask, "the image this edit started from is not at hand any more; select it in the image pane and press e", true
			}
		}
	}
	ask.again = last.ID
	return ask, "", true
}

// userSentence is an error as the chat shows it: one line, sanitised.
func userSentence(err error) string {
	return cells.OneLine(termsafe.Sanitize(err.Error()))
}

// imageRunner is the last model and request asked for, for the next
// /image and for a retry (the image run in flight is the engine's).
type imageRunner struct {
	lastModel string
	lastAsk   imageAsk
}
