package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"parley/api"
	"parley/imagegen"
	"parley/media"
)

// ReplyImages is what became of the images a model sent with its reply
// (an image-output chat model: see api.ReplyImage).
type ReplyImages struct {
	// Kept are the images put on the reply, in the reply's order, each
	// decoded whole within media.DecodeBudget first. Name is the file's
	// path when it was saved (Options.ImageDir), else "image N".
	Kept []api.Attachment
	// Saved counts those of Kept saved to files.
	Saved int
	// Notes say what was not kept and why, and a folder that could not
	// be written: one sentence each.
	Notes []string
}

// keepImages checks the images a reply brought by decoding each whole
// (the header was checked as it arrived) and saves those that decode in
// dir the way the images of /image are saved (a timestamp and a slug of
// the question; another format keeps its extension). It runs in the
// goroutine that read the reply, never the owner's; a cancelled ctx keeps
// nothing.
func keepImages(ctx context.Context, imgs []api.ReplyImage, dir, prompt string, now time.Time) ReplyImages {
	var out ReplyImages
	var ok []media.Verified
	for i, img := range imgs {
		which := "the reply's image " + strconv.Itoa(i+1) + " "
		if img.Data == nil {
			out.Notes = append(out.Notes, which+img.Refused)
			continue
		}
		v, err := media.Verify(ctx, img.Data, nil, nil)
		if ctx.Err() != nil {
			return ReplyImages{}
		}
		if err != nil {
			out.Notes = append(out.Notes, which+verifyFailure(err))
			continue
		}
		ok = append(ok, v)
	}
	if len(ok) == 0 {
		return out
	}
	var saved []media.SavedImage
	if dir != "" {
		var err error
		if err = imagegen.WritableDir(dir); err == nil {
			saved, err = media.SaveImages(dir, prompt, now, ok)
		}
		if err != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("the reply's images are kept with the conversation but not saved as files: %v; set image_dir in the config to a folder you can write to", err))
		}
	}
	for i, v := range ok {
		a := api.Attachment{
			Name:   fmt.Sprintf("image %d%s", i+1, v.Info.Format.Ext()),
			MIME:   v.Info.Format.MIME(),
			Width:  v.Info.Width,
			Height: v.Info.Height,
			Bytes:  len(v.Data),
			Data:   v.Data,
		}
		if i < len(saved) {
			a = savedAttachment(saved[i], v)
			out.Saved++
		}
		if a.SHA256 == "" {
			a.SHA256 = sha(v.Data)
		}
		out.Kept = append(out.Kept, a)
	}
	return out
}

// verifyFailure words media.Verify's error as the end of a sentence about
// one image.
func verifyFailure(err error) string {
	var (
		be *media.BudgetError
		se *media.ScansError
	)
	switch {
	case errors.As(err, &be):
		return "is " + be.Detail() + ", so it was not kept"
	case errors.As(err, &se):
		return "is " + se.Detail() + ", so it was not kept"
	}
	return err.Error() + ", so it was not kept"
}

// question is the last user message's text of the request, which names
// the files the reply's images are saved as.
func question(req api.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == api.RoleUser {
			return req.Messages[i].Content.PlainText()
		}
	}
	return "reply"
}
