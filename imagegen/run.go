package imagegen

import (
	"context"
	"fmt"
	"image"
	"os"
	"time"

	"parley/api"
	"parley/internal/fserr"
	"parley/media"
)

// Result is what a job made.
type Result struct {
	// Saved are the files written, in the reply's order; Images their
	// bytes (the same order), so a caller can show and keep them without
	// reading the files again.
	Saved  []media.SavedImage
	Images []media.Verified
	// Notes are what the saving had to say: another format's extension,
	// images sent beyond n.
	Notes []string
}

// DirError is a folder images cannot be saved in. Its message says where
// and why; callers add how to choose another folder in their own terms.
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string {
	return fmt.Sprintf("cannot save images in %s (%v)", e.Dir, e.Err)
}

func (e *DirError) Unwrap() error { return e.Err }

// WritableDir creates dir when missing and checks that a file can be made
// in it, so a full or read-only folder is found before the images are paid
// for.
func WritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &DirError{Dir: dir, Err: fserr.Cause(err)}
	}
	f, err := os.CreateTemp(dir, ".parley-check-*")
	if err != nil {
		return &DirError{Dir: dir, Err: fserr.Cause(err)}
	}
	f.Close()
	return os.Remove(f.Name())
}

// Run is RunWith with only a progress func (nil: none).
func Run(ctx context.Context, c *api.Client, j Job, now time.Time, progress func(string)) (Result, error) {
	return RunWith(ctx, c, j, now, RunOptions{Progress: progress})
}

// RunOptions are what a caller adds to a run.
type RunOptions struct {
	// Progress, when not nil, hears each stage ("downloading 2 images",
	// "saving 2 images").
	Progress func(string)
	// Budget is the decode budget the images are checked within, shared
	// with the caller's other decodes; nil is media.DecodeBudget for each
	// image alone (a command checks one image at a time).
	Budget *media.Budget
	// Decoded, when not nil, gets each image's bytes and pixels while they
	// are decoded to be checked, so a caller that shows the images keeps
	// what it needs (preview.Cache.Keep) instead of decoding them again.
	Decoded func(data []byte, img image.Image)
}

// RunWith checks the folder, asks the gateway for the images, downloads
// the ones that came as links (from the gateway's own host only), decodes
// each whole, and saves them. A cancelled ctx stops it wherever it is,
// decoding included, and saves nothing.
func RunWith(ctx context.Context, c *api.Client, j Job, now time.Time, o RunOptions) (Result, error) {
	say := func(s string) {
		if o.Progress != nil {
			o.Progress(s)
		}
	}
	if err := WritableDir(j.Dir); err != nil {
		return Result{}, err
	}
	var (
		reply *api.ImageReply
		err   error
	)
	if j.Edit != nil {
		reply, err = c.EditImages(ctx, *j.Edit)
	} else {
		reply, err = c.GenerateImages(ctx, j.Generate)
	}
	if err != nil {
		return Result{}, err
	}
	for _, d := range reply.Data {
		if d.File == nil && d.URL != "" {
			say("downloading " + Plural(len(reply.Data), "image"))
			break
		}
	}
	images, err := api.VerifyImages(ctx, reply, c.Download, o.Budget, o.Decoded)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	say("saving " + Plural(len(images), "image"))
	saved, err := media.SaveImages(j.Dir, j.Prompt, now, images)
	if err != nil {
		return Result{Saved: saved, Images: images[:len(saved)]}, &DirError{Dir: j.Dir, Err: fserr.Cause(err)}
	}
	res := Result{Saved: saved, Images: images}
	if reply.Dropped > 0 {
		res.Notes = append(res.Notes, DroppedNote(len(reply.Data)+reply.Dropped, j.N, len(saved)))
	}
	for _, s := range saved {
		if s.Note != "" {
			res.Notes = append(res.Notes, s.Note)
		}
	}
	return res, nil
}

// DroppedNote says that a gateway sent more images than asked for.
func DroppedNote(sent, asked, saved int) string {
	were := fmt.Sprintf("%d were", asked)
	if asked == 1 {
		were = "1 was"
	}
	return fmt.Sprintf("the gateway sent %d images though %s asked for; saved %s and dropped the other %d",
		sent, were, Plural(saved, "image"), sent-saved)
}
