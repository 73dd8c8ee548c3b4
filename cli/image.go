package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"parley/api"
	"parley/config"
)

type imageFlags struct {
	model string
	n     int
	size  string
	out   string
	edit  []string
	mask  string
}

func (a *app) imageCommand() *cobra.Command {
	var f imageFlags
	cmd := &cobra.Command{
		Use:   "image PROMPT",
		Short: "Generate (or edit) images and save them as files",
		Long: `Generate images from a prompt, or edit existing images with --edit, and save
them as PNG files named <yyyymmdd-hhmmss>-<prompt>-<i>.png. Existing files are
never overwritten. Each saved file's path is printed on its own line and
nothing else goes to stdout.`,
		Example: `  parley image "a lighthouse at dusk, watercolour"
  parley image -n 2 --size 1536x1024 -o ./art "isometric city block"
  parley image --edit room.png --mask window.png "put a cat on the windowsill"`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
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

func (a *app) image(ctx context.Context, f imageFlags, prompt string) error {
	if prompt == "" {
		return usagef("no prompt given; describe the image, e.g. parley image \"a red bicycle\"")
	}
	if f.mask != "" && len(f.edit) == 0 {
		return usagef("--mask needs --edit IMAGE, since a mask marks the part of an image to change")
	}
	if f.n < 0 {
		return usagef("-n must be 1 or more, not %d", f.n)
	}
	cfg, err := a.loadConfig()
	if err != nil {
		return err
	}
	model := firstNonEmpty(f.model, cfg.ImageModel, defaultImageModel)
	catalog := cfg.Catalog()
	need := api.CapImageGeneration
	if len(f.edit) > 0 {
		need = api.CapImageEdit
	}
	if err := catalog.Require(model, need); err != nil {
		return usage(err)
	}
	opts, err := catalog.ImageOptions(model, need, f.n, f.size)
	if err != nil {
		return usage(err)
	}
	req := api.ImageRequest{Model: model, Prompt: prompt, N: opts.N, Size: opts.Size, ResponseFormat: opts.ResponseFormat}
	var edit *api.EditRequest
	if len(f.edit) > 0 {
		if edit, err = editRequest(req, opts.EditPath, f.edit, f.mask); err != nil {
			return err
		}
	}
	dir := cfg.ImageDir()
	if f.out != "" {
		dir = config.ExpandHome(f.out, a.env.HomeDir)
	}
	// Images cost money: find out that they cannot be saved before asking.
	if err := writableDir(dir); err != nil {
		return usage(err)
	}
	client, err := a.client(cfg, model)
	if err != nil {
		return err
	}
	var resp *api.ImageResponse
	if edit != nil {
		resp, err = client.EditImages(ctx, *edit)
	} else {
		resp, err = client.GenerateImages(ctx, req)
	}
	if err != nil {
		return err
	}
	images, err := api.DecodeImageData(ctx, resp, client.Download)
	if err != nil {
		return err
	}
	saved, err := api.SaveImages(dir, prompt, a.env.Now(), images)
	if err != nil {
		return err
	}
	for _, s := range saved {
		if s.Note != "" {
			a.say(s.Note)
		}
		fmt.Fprintln(a.env.Stdout, s.Path)
	}
	return nil
}

// editRequest reads the images to edit and the mask, checking the mask
// before anything is uploaded.
func editRequest(gen api.ImageRequest, path string, images []string, mask string) (*api.EditRequest, error) {
	req := &api.EditRequest{
		Model: gen.Model, Prompt: gen.Prompt, N: gen.N, Size: gen.Size,
		ResponseFormat: gen.ResponseFormat, Path: path,
	}
	for _, p := range images {
		f, err := readImageFile(p)
		if err != nil {
			return nil, err
		}
		req.Images = append(req.Images, f)
	}
	if mask != "" {
		m, err := readImageFile(mask)
		if err != nil {
			return nil, err
		}
		if err := api.CheckMask(req.Images[0].Data, m.Data); err != nil {
			return nil, usage(err)
		}
		req.Mask = &m
	}
	return req, nil
}

func readImageFile(path string) (api.ImageFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return api.ImageFile{}, usagef("cannot read %s (%v); check the path", path, unwrapPathError(err))
	}
	format := api.DetectImageFormat(data)
	if format == "" {
		what := "not an image parley can read"
		if d := api.DescribeContent(data); d != "" {
			what = d
		}
		return api.ImageFile{}, usagef("%s is %s; give a PNG, JPEG, WEBP or GIF image", path, what)
	}
	return api.ImageFile{Name: filepath.Base(path), Data: data, MIME: format.MIME()}, nil
}

// writableDir creates dir if needed and checks that a file can be made in it.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create the image directory %s (%w); choose another with -o or image_dir in the config", dir, unwrapPathError(err))
	}
	f, err := os.CreateTemp(dir, ".parley-check-*")
	if err != nil {
		return fmt.Errorf("cannot write in the image directory %s (%w); choose another with -o or image_dir in the config", dir, unwrapPathError(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
