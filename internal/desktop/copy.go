package desktop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"parley/internal/fserr"
	"parley/media"
)

// osc52 is the end of every "no tool" sentence of CopyImage: the fallback
// that copies text cannot help here.
const osc52 = "; the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images"

// CopyImage puts an image on the system clipboard as PNG: wl-copy on
// Wayland (xclip through XWayland when only that is installed), xclip on
// X11, osascript on macOS, PowerShell on Windows. JPEG, WEBP and GIF
// images are converted to PNG first (decoded within media.DecodeBudget),
// because PNG is what every app pastes. wl-copy and xclip leave a process
// behind that serves the clipboard until something else is copied; that
// is how those clipboards work, and it is not waited for.
//
// Errors are one sentence and wrap ErrNoTool (what to install, and that
// OSC 52 cannot carry images) or ErrTimeout; others say the tool failed.
// It runs one tool for up to Timeout, plus the conversion; call it from a
// tea.Cmd.
func (s System) CopyImage(ctx context.Context, img []byte) error {
	png, err := asPNG(ctx, img)
	if err != nil {
		return err
	}
	const what = "copy the image"
	if name, ps := s.wslPowerShell(); ps != "" {
		return s.copyWSL(ctx, what, name, ps, "image", png)
	}
	switch s.session() {
	case wayland:
		if p := s.find("wl-copy"); p != "" {
			return s.copyWith(ctx, what, tool{name: "wl-copy", path: p, args: []string{"--type", "image/png"}, stdin: png, serves: true})
		}
		if s.getenv("DISPLAY") != "" {
			if p := s.find("xclip"); p != "" {
				return s.copyWith(ctx, what, xclipWrite(p, "image/png", png))
			}
		}
		return newError(ErrNoTool, "cannot copy the image: install wl-clipboard (wl-copy) for Wayland"+osc52)
	case x11:
		if p := s.find("xclip"); p != "" {
			return s.copyWith(ctx, what, xclipWrite(p, "image/png", png))
		}
		return newError(ErrNoTool, "cannot copy the image: install xclip for X11"+osc52)
	case macOS:
		p := s.find("osascript")
		if p == "" {
			return newError(ErrNoTool, "cannot copy the image: osascript was not found on PATH; it comes with macOS, so check PATH"+osc52)
		}
		return s.copyThroughFile(ctx, what, "image.png", png, func(file string) tool {
			return tool{name: "osascript", path: p, args: append(scriptArgs(macWritePNG), file), limit: stderrKeep}
		})
	case windows:
		name, p := s.powershell()
		if p == "" {
			return psMissing(what)
		}
		return s.copyThroughFile(ctx, what, "image.png", png, func(file string) tool {
			return tool{name: name, path: p, args: psArgs(psWrite), env: []string{"PARLEY_CLIPBOARD_IMAGE=" + file}, limit: stderrKeep}
		})
	}
	return newError(ErrNoDesktop, "cannot copy the image: "+s.noSessionReason()+osc52+"; copy the file's path instead")
}

// xclipWrite puts data on the clipboard selection as the given target
// ("image/png"; "" for xclip's own text target, UTF8_STRING).
func xclipWrite(path, target string, data []byte) tool {
	args := []string{"-selection", "clipboard"}
	if target != "" {
		args = append(args, "-t", target)
	}
	return tool{name: "xclip", path: path, args: append(args, "-i"), stdin: data, serves: true}
}

// copyWith runs a tool that copies, the one path of every copy: the
// System's time limit, the whole process group killed on a timeout, and
// one sentence that starts "cannot <what>: " when it fails.
func (s System) copyWith(ctx context.Context, what string, t tool) error {
	if t.limit == 0 {
		t.limit = stderrKeep
	}
	if _, err := s.run(ctx, t); err != nil {
		return copyFailed(what, err)
	}
	return nil
}

// copyThroughFile writes data to a temporary file named name for a tool
// that reads it from there; the tool has put it on the clipboard when it
// exits.
func (s System) copyThroughFile(ctx context.Context, what, name string, data []byte, t func(file string) tool) error {
	dir, err := os.MkdirTemp("", "parley-clipboard-")
	if err != nil {
		return fmt.Errorf("cannot %s: making a temporary folder failed (%w)", what, err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return fmt.Errorf("cannot %s: writing a temporary file failed (%w)", what, fserr.Cause(err))
	}
	return s.copyWith(ctx, what, t(file))
}

func copyFailed(what string, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, ErrTimeout):
		return newError(ErrTimeout, "cannot "+what+": "+err.Error()+"; try again")
	}
	return fmt.Errorf("cannot %s: %w", what, err)
}

// asPNG returns PNG bytes as they are, and converts the other formats
// (stopping when ctx ends).
func asPNG(ctx context.Context, img []byte) ([]byte, error) {
	if media.Sniff(img) == media.PNG {
		return img, nil
	}
	decoded, info, release, err := media.Decode(ctx, img, nil)
	defer release()
	var (
		be *media.BudgetError
		se *media.ScansError
	)
	switch {
	case errors.Is(err, media.ErrNotImage):
		return nil, errors.New("cannot copy the image: it is not a PNG, JPEG, WEBP or GIF image")
	case errors.As(err, &be):
		return nil, fmt.Errorf("cannot copy the image: it is %s", be.Detail())
	case errors.As(err, &se):
		return nil, fmt.Errorf("cannot copy the image: it is %s", se.Detail())
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("cannot copy the image: it is a damaged %s image (%v)", info.Format.Name(), err)
	}
	// PNG carries no EXIF orientation, so the rotation goes into the pixels.
	png, err := media.EncodePNG(media.Orient(decoded, media.Orientation(img)))
	if err != nil {
		return nil, fmt.Errorf("cannot copy the image: converting it to PNG failed (%w)", err)
	}
	return png, nil
}
