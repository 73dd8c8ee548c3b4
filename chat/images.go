package chat

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"parley/api"
	"parley/conversation"
	"parley/imagegen"
	"parley/media"
)

// ImageRun is the image turn in flight: its message in the conversation
// and the job that makes its images.
type ImageRun struct {
	// ID is the image turn's message id.
	ID int
	// What says what is being made (imagegen.Describe).
	What    string
	Started time.Time

	job     imagegen.Job
	ctx     context.Context
	cancel  context.CancelFunc
	clients *Clients
}

// ImagesMade is the end of an image run.
type ImagesMade struct {
	ID  int
	Res imagegen.Result
	Err error
}

// Images is the image run in flight (nil when none).
func (e *Engine) Images() *ImageRun { return e.images }

// StartImages adds an image turn for job (prompt as asked; again, when
// not 0, is the earlier image turn this one asks again) and returns the
// run that makes its images. A refusal changes nothing.
func (e *Engine) StartImages(job imagegen.Job, prompt string, turn conversation.ImageTurn, again int) (*ImageRun, error) {
	if e.Busy() {
		return nil, ErrBusy
	}
	if !e.opts.Clients.Configured() {
		return nil, ErrNoGateway
	}
	var id int
	var err error
	if again != 0 {
		id, err = e.conv.StartImagesAgain(again, prompt, job.Model, turn)
	} else {
		id, err = e.conv.StartImages(prompt, job.Model, turn)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(e.base)
	e.images = &ImageRun{ID: id, What: imagegen.Describe(job), Started: e.opts.Now(), job: job, ctx: ctx, cancel: cancel, clients: e.opts.Clients}
	return e.images, nil
}

// Run makes the run's images (building the model's client first if it
// must). It blocks: the goroutine that calls it belongs to the run's
// context, which StopImages and the end of the run cancel.
func (r *ImageRun) Run(now time.Time, o imagegen.RunOptions) ImagesMade {
	c, err := r.clients.Get(r.job.Model)
	if err != nil {
		return ImagesMade{ID: r.ID, Err: err}
	}
	res, err := imagegen.RunWith(r.ctx, c, r.job, now, o)
	return ImagesMade{ID: r.ID, Res: res, Err: err}
}

// FinishImages ends the image turn the run made: its images are kept
// with their paths, or the failure in their place, worded by failText.
// It reports how many images were saved, and false for a late answer of
// a run that was stopped (dropped).
func (e *Engine) FinishImages(m ImagesMade, failText func(error) string) (saved int, ok bool) {
	run := e.images
	if run == nil || run.ID != m.ID {
		return 0, false
	}
	run.cancel()
	e.images = nil
	if m.Err != nil {
		if errors.Is(m.Err, context.Canceled) {
			_ = e.conv.Interrupt(m.ID)
			return 0, true
		}
		_ = e.conv.Fail(m.ID, failText(m.Err))
		return 0, true
	}
	atts := make([]api.Attachment, 0, len(m.Res.Saved))
	for i, s := range m.Res.Saved {
		atts = append(atts, savedAttachment(s, m.Res.Images[i]))
	}
	_ = e.conv.FinishImages(m.ID, atts, m.Res.Notes)
	return len(atts), true
}

// StopImages abandons the image run in flight: nothing is saved. It
// reports whether a run was stopped.
func (e *Engine) StopImages() bool {
	run := e.images
	if run == nil {
		return false
	}
	run.cancel()
	e.images = nil
	_ = e.conv.Interrupt(run.ID)
	return true
}

// sha is the hex SHA-256 of data, as attachments carry it.
func sha(data []byte) string { return fmt.Sprintf("%x", sha256.Sum256(data)) }

// savedAttachment is a saved image as the conversation keeps it: named by
// its path, with its bytes (so the history keeps it when the file moves).
func savedAttachment(s media.SavedImage, v media.Verified) api.Attachment {
	return api.Attachment{
		Name:   s.Path,
		MIME:   s.Format.MIME(),
		SHA256: sha(v.Data),
		Width:  s.Width, Height: s.Height,
		Bytes: len(v.Data),
		Data:  v.Data,
	}
}
