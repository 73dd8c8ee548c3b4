package desktop

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"parley/internal/bytesize"
	"parley/media"
)

// DefaultCaptureTimeout is how long a region capture may wait for the user
// to draw the region when System.CaptureTimeout is zero: long enough to
// find the window, short enough that a selection overlay left open on
// another screen does not hold the chat for ever.
const DefaultCaptureTimeout = 2 * time.Minute

// ErrCancelled is a capture the user cancelled (Esc in the selection, or a
// tool that exited without writing an image). Its text is the whole
// message: "screenshot cancelled".
var ErrCancelled = errors.New("screenshot cancelled")

// Screenshot is an image a region capture took.
type Screenshot struct {
	// Image is the image as the tool wrote it (PNG from every tool parley
	// runs itself). Its header was checked: a known format, real
	// dimensions and a decoding cost within media.DecodeBudget.
	Image []byte
	// Info is what Image's header says.
	Info media.Info
	// Tool is the program that took it ("grim", "maim", "screenshot_cmd"),
	// for messages.
	Tool string
}

// capturer is one way to take a region screenshot: a tool that writes the
// image to the file it is given, or (file "" in args) to its stdout.
type capturer struct {
	name   string
	args   func(file string) []string
	stdout bool
}

// x11Capturers are the X11 tools, in the order they are tried.
func x11Capturers() []capturer {
	return []capturer{
		{name: "maim", args: func(f string) []string { return []string{"-s", f} }},
		{name: "scrot", args: func(f string) []string { return []string{"-s", f} }},
		{name: "gnome-screenshot", args: func(f string) []string { return []string{"-a", "-f", f} }},
		{name: "spectacle", args: func(f string) []string { return []string{"-r", "-b", "-n", "-o", f} }},
		{name: "flameshot", args: func(string) []string { return []string{"gui", "--raw"} }, stdout: true},
	}
}

// CaptureRegion lets the user draw a region of the screen and returns the
// image of it: screenshot_cmd when the config sets one (ScreenshotCmd);
// else slurp then grim on Wayland; on X11 the first installed of maim -s,
// scrot -s, gnome-screenshot -a, spectacle -r and flameshot gui; on macOS
// screencapture -i. The tools wait for the user, so each run has
// CaptureTimeout (not Timeout) and ends, with its whole process group,
// when ctx does; the image is read with the image cap (MaxImageBytes) and
// its header checked before it is returned.
//
// A capture that ends without an image (Esc in the selection: a non-zero
// exit with nothing written and nothing said but that it was cancelled,
// or a tool that exits 0 without writing) returns ErrCancelled. Without a
// tool the error wraps ErrNoTool and says what to install; a run over
// CaptureTimeout wraps ErrTimeout. Call it from a tea.Cmd.
func (s System) CaptureRegion(ctx context.Context) (Screenshot, error) {
	if cmd := strings.TrimSpace(s.ScreenshotCmd); cmd != "" {
		return s.captureCommand(ctx, cmd)
	}
	if name, ps := s.wslPowerShell(); ps != "" {
		return s.captureWindows(ctx, name, ps)
	}
	switch s.session() {
	case wayland:
		return s.captureWayland(ctx)
	case x11:
		for _, c := range x11Capturers() {
			if p := s.find(c.name); p != "" {
				return s.capture(ctx, c, p)
			}
		}
		return Screenshot{}, newError(ErrNoTool, "cannot take a screenshot: install maim (or scrot, gnome-screenshot, spectacle or flameshot) for X11, or set screenshot_cmd in the config")
	case macOS:
		p := s.find("screencapture")
		if p == "" {
			return Screenshot{}, newError(ErrNoTool, "cannot take a screenshot: screencapture was not found on PATH; it comes with macOS, so check PATH")
		}
		return s.capture(ctx, capturer{name: "screencapture", args: func(f string) []string { return []string{"-i", f} }}, p)
	case windows:
		name, ps := s.powershell()
		if ps == "" {
			return Screenshot{}, psMissing("take a screenshot")
		}
		return s.captureWindows(ctx, name, ps)
	}
	return Screenshot{}, newError(ErrNoDesktop, "cannot take a screenshot: "+s.noSessionReason()+"; attach an image file instead")
}

// slurpGeometry is what slurp prints for a region: "X,Y WxH" (X and Y
// may be negative on a screen left of or above the first).
var slurpGeometry = regexp.MustCompile(`^-?[0-9]+,-?[0-9]+ [0-9]+x[0-9]+$`)

// maxGeometry bounds slurp's output: one short line.
const maxGeometry = 4 << 10

// captureWayland runs slurp for the region, then grim for its pixels,
// written to grim's stdout.
func (s System) captureWayland(ctx context.Context) (Screenshot, error) {
	slurp, grim := s.find("slurp"), s.find("grim")
	switch {
	case slurp == "" && grim == "":
		return Screenshot{}, newError(ErrNoTool, "cannot take a screenshot: install grim and slurp for Wayland, or set screenshot_cmd in the config")
	case slurp == "":
		return Screenshot{}, newError(ErrNoTool, "cannot take a screenshot: install slurp (grim takes the picture, slurp the region) for Wayland, or set screenshot_cmd in the config")
	case grim == "":
		return Screenshot{}, newError(ErrNoTool, "cannot take a screenshot: install grim (slurp picks the region, grim takes the picture) for Wayland, or set screenshot_cmd in the config")
	}
	out, err := s.run(ctx, tool{name: "slurp", path: slurp, limit: maxGeometry, wait: s.captureTimeout()})
	if err != nil {
		return Screenshot{}, s.captureFailed("slurp", err, false)
	}
	geometry := strings.TrimSpace(string(out))
	if geometry == "" {
		return Screenshot{}, ErrCancelled
	}
	if !slurpGeometry.MatchString(geometry) {
		return Screenshot{}, fmt.Errorf("cannot take a screenshot: slurp printed %q, not a region (X,Y WxH); check that slurp works in a terminal", excerpt(out))
	}
	return s.capture(ctx, capturer{name: "grim", args: func(string) []string { return []string{"-g", geometry, "-"} }, stdout: true}, grim)
}

// captureCommand runs screenshot_cmd with the system's shell: {file} in it
// is replaced by a temporary file the command writes; without {file} it
// writes the image to its stdout.
func (s System) captureCommand(ctx context.Context, cmd string) (Screenshot, error) {
	name, shell, args := "sh", s.find("sh"), func(line string) []string { return []string{"-c", line} }
	quote := shellQuote
	if s.session() == windows {
		name, shell = s.powershell()
		args, quote = psArgs, psQuote
	}
	if shell == "" {
		return Screenshot{}, newError(ErrNoTool, "cannot run screenshot_cmd: there is no shell ("+cmp.Or(name, "powershell")+") on PATH")
	}
	toFile := strings.Contains(cmd, "{file}")
	c := capturer{
		name:   "screenshot_cmd",
		stdout: !toFile,
		args: func(file string) []string {
			return args(strings.ReplaceAll(cmd, "{file}", quote(file)))
		},
	}
	return s.capture(ctx, c, shell)
}

// psQuote quotes a string for PowerShell: single quotes, doubled inside.
func psQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// shellQuote quotes a string for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// capture runs one capturer and checks the image it wrote.
func (s System) capture(ctx context.Context, c capturer, path string) (Screenshot, error) {
	var (
		data []byte
		err  error
	)
	if c.stdout {
		data, err = s.run(ctx, tool{name: c.name, path: path, args: c.args(""), limit: s.maxImage(), head: shotHead(c.name), wait: s.captureTimeout()})
	} else {
		data, err = s.captureToFile(ctx, c, path)
	}
	if err != nil {
		return Screenshot{}, s.captureFailed(c.name, err, len(data) > 0)
	}
	if len(data) == 0 {
		return Screenshot{}, ErrCancelled
	}
	info, err := checkShot(data, c.name)
	if err != nil {
		media.Reclaim(int64(len(data)))
		return Screenshot{}, err
	}
	return Screenshot{Image: data, Info: info, Tool: c.name}, nil
}

// captureToFile runs a capturer that writes a file, in a temporary folder
// of its own, and reads what it wrote (nothing when it wrote nothing).
func (s System) captureToFile(ctx context.Context, c capturer, path string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "parley-screenshot-")
	if err != nil {
		return nil, fmt.Errorf("cannot take a screenshot: making a temporary folder failed (%w)", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "screenshot.png")
	if _, err := s.run(ctx, tool{name: c.name, path: path, args: c.args(file), limit: stderrKeep, wait: s.captureTimeout()}); err != nil {
		written, _ := readCapped(file, s.maxImage())
		return written, err
	}
	return readCapped(file, s.maxImage())
}

// cancelWords are what the tools print when the user cancels the
// selection: slurp "selection cancelled", maim "Selection was cancelled",
// scrot "Key was pressed, aborting selection", flameshot "Screenshot
// aborted".
func cancelWords() []string { return []string{"cancel", "abort", "key was pressed"} }

// captureFailed words a failed capture run. A tool that exited with an
// error without writing anything was cancelled, unless it said something
// else (a compositor without the screen-capture protocol, a missing
// display): that is shown, so a broken setup does not pass for a cancel.
func (s System) captureFailed(name string, err error, wrote bool) error {
	var te *ToolError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, ErrTimeout):
		return newError(ErrTimeout, fmt.Sprintf("cannot take a screenshot: %s waited for a region longer than %v, so parley stopped it; try again", name, s.captureTimeout()))
	case errors.Is(err, errTooMuch):
		return fmt.Errorf("cannot take a screenshot: %s wrote more than parley reads (%s); capture a smaller region", name, bytesize.Format(s.maxImage()))
	case errors.As(err, &te) && !wrote && (te.Stderr == "" || containsAny(strings.ToLower(te.Stderr), cancelWords())):
		return ErrCancelled
	}
	var ri *refusedImage
	if errors.As(err, &ri) {
		return err
	}
	return fmt.Errorf("cannot take a screenshot: %w", err)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// shotHead stops a capture whose first bytes are refused (not an image, a
// header over the decode budget), as imageHead does for the clipboard.
func shotHead(name string) func([]byte) error {
	return func(head []byte) error {
		info, err := media.Inspect(head)
		return shotRefusal(info, err, head, name)
	}
}

// checkShot checks a whole captured image's header.
func checkShot(data []byte, name string) (media.Info, error) {
	info, err := media.Inspect(data)
	if rerr := shotRefusal(info, err, data, name); rerr != nil {
		return info, rerr
	}
	if err != nil {
		return info, fmt.Errorf("cannot attach the screenshot: %s wrote a damaged %s image (%v); try again", name, info.Format.Name(), err)
	}
	return info, nil
}

// shotRefusal words what Inspect said of a captured image when it refuses
// it for good; nil otherwise (accepted, or damaged, which only the whole
// image can tell).
func shotRefusal(info media.Info, err error, data []byte, name string) error {
	return inspectRefusal(info, err, data, refusalText{
		notImage: func(what string) string {
			return fmt.Sprintf("cannot attach the screenshot: %s wrote %s, not a PNG, JPEG, WEBP or GIF image; check that it writes PNG (screenshot_cmd)", name, what)
		},
		scans:  "cannot attach the screenshot: it is %s; capture it again as PNG",
		budget: "cannot attach the screenshot: it is %s; capture a smaller region",
	})
}

func (s System) captureTimeout() time.Duration {
	if s.CaptureTimeout <= 0 {
		return DefaultCaptureTimeout
	}
	return s.CaptureTimeout
}
