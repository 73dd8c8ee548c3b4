package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"parley/api"
	"parley/config"
	"parley/imagegen"
	"parley/internal/fserr"
	"parley/termsafe"
)

type imageFlags struct {
	model string
	n     int
	// nGiven: -n was given (0 is then refused, not the default).
	nGiven bool
	size   string
	out    string
	edit   []string
	mask   string
}

func (a *app) imageCommand() *cobra.Command {
	var f imageFlags
	cmd := &cobra.Command{
		Use:   "image PROMPT",
		Short: "Generate (or edit) images and save them as files",
		Long: `Generate images from a prompt, or edit existing images with --edit, and save
them as PNG files named <yyyymmdd-hhmmss>-<prompt>-<i>.png. Existing files are
never overwritten. Each saved file's path is printed on its own line and
nothing else goes to stdout. With --demo (and no -o) the images go to a new
temporary folder, which stderr names: the demo keeps nothing.`,
		Example: `  parley image "a lighthouse at dusk, watercolour"
  parley image -n 2 --size 1536x1024 -o ./art "isometric city block"
  parley image --edit room.png --mask window.png "put a cat on the windowsill"`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.nGiven = cmd.Flags().Changed("n")
			return a.image(cmd.Context(), f, strings.TrimSpace(strings.Join(args, " ")))
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.model, "model", "m", "", "image model (default: image_model from the config, else gpt-image-1)")
	fl.IntVarP(&f.n, "n", "n", 0, "number of images (default: 1)")
	fl.StringVar(&f.size, "size", "", "image size as WIDTHxHEIGHT, e.g. 1024x1024 (default: the model's)")
	fl.StringVarP(&f.out, "out", "o", "", "directory to save into (default: image_dir from the config)")
	fl.StringArrayVar(&f.edit, "edit", nil, "edit this image instead of generating a new one (repeatable)")
	fl.StringVar(&f.mask, "mask", "", "PNG mask for --edit: transparent where the image should change")
	return cmd
}

// defaultImageModel is used when neither --model nor image_model says.
const defaultImageModel = "gpt-image-1"

// image checks everything it can before the demo's folder is made and
// before any request (images cost money), then makes the images.
func (a *app) image(ctx context.Context, f imageFlags, prompt string) error {
	if prompt == "" {
		return usagef("no prompt given; describe the image, e.g. parley image \"a red bicycle\"")
	}
	if f.mask != "" && len(f.edit) == 0 {
		return usagef("--mask needs --edit IMAGE, since a mask marks the part of an image to change")
	}
	cfg, err := a.loadGatewayConfig("image")
	if err != nil {
		return err
	}
	model := cmp.Or(strings.TrimSpace(f.model), strings.TrimSpace(cfg.ImageModel), defaultImageModel)
	ids, said := a.knownModels(cfg)
	cat := cfg.Catalog().WithListed(ids).WithGateway(said)
	if err := checkImageCount(cat, model, f); err != nil {
		return err
	}
	req := imagegen.Request{Prompt: prompt, Model: model, N: f.n, Size: f.size}
	if err := readImageInputs(f, &req); err != nil {
		return err
	}
	// With no list of the gateway's known yet, a refusal of the model
	// asks for one, to name the models that can.
	listed := len(ids) > 0 || cfg.Overridden() != ""
	job, err := planImage(cat, listed, req, a.modelListerFor(ctx, cfg))
	if err != nil {
		return usage(err)
	}
	job.Dir = cfg.ImageDir()
	switch {
	case f.out != "":
		job.Dir = config.ExpandHome(f.out, a.env.HomeDir)
	case a.demo:
		// The demo keeps nothing of the user's: its pictures go to a
		// temporary folder, not to image_dir; a run that saves nothing
		// leaves no folder behind.
		if job.Dir, err = a.demoImageDir("give one with -o"); err != nil {
			return err
		}
		defer os.Remove(job.Dir) // only an empty folder goes
	}
	// Images cost money: find out that they cannot be saved before asking.
	if err := writableDir(job.Dir); err != nil {
		return usage(err)
	}
	client, err := a.client(cfg, job.Model)
	if err != nil {
		return err
	}
	prog := a.startProgress(ctx, imagegen.Describe(job))
	defer prog.stop()
	res, err := imagegen.Run(ctx, client, job, a.env.Now(), prog.set)
	prog.stop()
	if err != nil {
		var de *imagegen.DirError
		if errors.As(err, &de) {
			return fmt.Errorf("%w; choose another with -o or image_dir in the config", err)
		}
		return err
	}
	for _, n := range res.Notes {
		a.console.say(n)
	}
	for _, s := range res.Saved {
		fmt.Fprintln(a.env.Stdout, s.Path)
	}
	return nil
}

// checkImageCount refuses a number of images out of 1..what the model
// makes per request (1 when that is not known), in the words of the
// chat's --n.
func checkImageCount(cat *api.Catalog, model string, f imageFlags) error {
	if !f.nGiven {
		return nil
	}
	return usage(imagegen.CheckCount(cat, model, "-n", f.n))
}

// readImageInputs reads the images of --edit and the --mask into req.
func readImageInputs(f imageFlags, req *imagegen.Request) error {
	for _, p := range f.edit {
		img, err := api.ReadImageFile(p, "--edit image")
		if err != nil {
			return usage(err)
		}
		req.Edit = append(req.Edit, img)
	}
	if f.mask != "" {
		m, err := api.ReadImageFile(f.mask, "--mask")
		if err != nil {
			return usage(err)
		}
		req.Mask = &m
	}
	return nil
}

// planImage checks req against what is known of the model (cat). A model
// that cannot do what is asked is refused naming those that can: when no
// gateway list is known yet (listed is false), list asks for one first,
// as `parley models` does.
func planImage(cat *api.Catalog, listed bool, req imagegen.Request, list modelLister) (imagegen.Job, error) {
	job, err := imagegen.Plan(cat, req)
	var ce *api.CapabilityError
	if err == nil || listed || !errors.As(err, &ce) || ce.Capability == 0 || len(ce.Models) > 0 {
		return job, err
	}
	infos, ok := list(req.Model)
	if !ok {
		return job, err
	}
	return imagegen.Plan(cat.WithListed(api.ModelIDs(infos)).WithGateway(infos), req)
}

// demoImageDir makes the temporary folder the demo's images go to and
// says where it is (stdout keeps the paths only); fix is what to do when
// it cannot be made.
func (a *app) demoImageDir(fix string) (string, error) {
	base := a.env.Getenv("TMPDIR")
	if base == "" {
		base = os.TempDir()
	}
	dir, err := os.MkdirTemp(base, "parley-demo-images-")
	if err != nil {
		return "", fmt.Errorf("cannot make a temporary folder for the demo's images in %s (%w); %s", base, fserr.Cause(err), fix)
	}
	a.console.say("the demo keeps nothing: its images go to the temporary folder " + dir + " (copy the ones you want to keep)")
	return dir, nil
}

// writableDir creates dir if needed and checks that a file can be made in it.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create the image directory %s (%w); choose another with -o or image_dir in the config", dir, fserr.Cause(err))
	}
	f, err := os.CreateTemp(dir, ".parley-check-*")
	if err != nil {
		return fmt.Errorf("cannot write in the image directory %s (%w); choose another with -o or image_dir in the config", dir, fserr.Cause(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// progressTick is how often the progress line may be redrawn. It is drawn
// only when its text changed, and the seconds move once a second, so it
// changes about once a second and never more than twice.
const progressTick = 500 * time.Millisecond

// imageProgress shows on a terminal's stderr what parley image is waiting
// for and for how long, on one line rewritten in place and cleared at the
// end. Its goroutine is stopped by stop or by the context; the zero value
// (stderr not a terminal) draws nothing.
type imageProgress struct {
	w      io.Writer
	width  int
	now    func() time.Time
	start  time.Time
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	what    string
	shown   string
	stopped bool
}

// startProgress starts the progress line when stderr is a terminal.
func (a *app) startProgress(ctx context.Context, what string) *imageProgress {
	width, ok := terminalWidth(a.env.Stderr)
	if !ok {
		return &imageProgress{}
	}
	return runProgress(ctx, a.env.Stderr, width, what, time.Now, progressTick)
}

// terminalWidth reports whether w is a terminal, and its width.
func terminalWidth(w io.Writer) (int, bool) {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0, false
	}
	width, _, err := term.GetSize(f.Fd())
	if err != nil || width <= 0 {
		width = 80
	}
	return width, true
}

func runProgress(ctx context.Context, w io.Writer, width int, what string, now func() time.Time, tick time.Duration) *imageProgress {
	ctx, cancel := context.WithCancel(ctx)
	p := &imageProgress{w: w, width: width, now: now, start: now(), what: what, cancel: cancel, done: make(chan struct{})}
	p.draw()
	go func() {
		defer close(p.done)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return p
}

// set changes what the line says is going on.
func (p *imageProgress) set(what string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	p.what = what
	p.mu.Unlock()
	p.draw()
}

func (p *imageProgress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	secs := int(p.now().Sub(p.start) / time.Second)
	line := ansi.Truncate(fmt.Sprintf("parley: %s · %d s", termsafe.Sanitize(p.what), secs), p.width-1, "…")
	if line == p.shown {
		return
	}
	p.shown = line
	fmt.Fprint(p.w, "\r\x1b[K"+line)
}

// stop ends the goroutine and clears the line; it may be called again.
func (p *imageProgress) stop() {
	if p.w == nil {
		return
	}
	p.cancel()
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// plural writes "1 image", "3 sessions".
func plural(n int, noun string) string { return imagegen.Plural(n, noun) }
