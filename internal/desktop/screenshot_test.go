//go:build unix

package desktop

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/media"
)

// grimScript writes $T/shot.png to stdout when asked for "-g GEOMETRY -".
const grimScript = `[ "$1" = -g ] && [ "$3" = - ] || { echo "unexpected arguments: $*" >&2; exit 2; }
exec /bin/cat "$T/shot.png"`

// toFileScript copies $T/shot.png to the last argument, the file a tool
// is told to write.
const toFileScript = `for last; do :; done; exec /bin/cp "$T/shot.png" "$last"`

func TestCaptureWayland(t *testing.T) {
	f := newFakes(t)
	png := screenshotPNG(t)
	f.file("shot.png", png)
	f.add("slurp", `echo "10,-20 300x200"`)
	f.add("grim", grimScript)
	shot, err := f.system("linux", waylandEnv()).CaptureRegion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shot.Image, png) || shot.Tool != "grim" || shot.Info.Format != media.PNG || shot.Info.Width != 320 {
		t.Fatalf("got %d bytes from %q, info %+v", len(shot.Image), shot.Tool, shot.Info)
	}
	if got := f.calls("grim"); !slices.Equal(got, []string{"-g 10,-20 300x200 -"}) {
		t.Fatalf("grim ran with %q", got)
	}
	if got := f.read("slurp.args"); got != "\n" {
		t.Fatalf("slurp ran with %q, want no arguments, once", got)
	}
}

// Esc in slurp: it exits 1 saying the selection was cancelled, or says
// nothing; either way the capture is cancelled and grim never runs.
func TestCaptureWaylandCancelled(t *testing.T) {
	for _, body := range []string{`echo "selection cancelled" >&2; exit 1`, `exit 1`, `exit 0`} {
		f := newFakes(t)
		f.add("slurp", body)
		f.add("grim", grimScript)
		_, err := f.system("linux", waylandEnv()).CaptureRegion(context.Background())
		if !errors.Is(err, ErrCancelled) || err.Error() != "screenshot cancelled" {
			t.Fatalf("%s: err = %v, want ErrCancelled", body, err)
		}
		if calls := f.calls("grim"); calls != nil {
			t.Fatalf("grim ran after a cancel: %q", calls)
		}
	}
}

// A slurp that fails for another reason says so: a compositor without
// the protocols it needs is not a cancel.
func TestCaptureWaylandBrokenTool(t *testing.T) {
	f := newFakes(t)
	f.add("slurp", `echo "compositor doesn't support wlr-layer-shell-unstable-v1" >&2; exit 1`)
	f.add("grim", grimScript)
	_, err := f.system("linux", waylandEnv()).CaptureRegion(context.Background())
	if err == nil || errors.Is(err, ErrCancelled) {
		t.Fatalf("err = %v", err)
	}
	want := "cannot take a screenshot: slurp failed (exit status 1: compositor doesn't support wlr-layer-shell-unstable-v1)"
	if err.Error() != want {
		t.Fatalf("err = %q\nwant  %q", err, want)
	}
}

func TestCaptureWaylandBadGeometry(t *testing.T) {
	f := newFakes(t)
	f.add("slurp", `echo "somewhere"`)
	f.add("grim", grimScript)
	_, err := f.system("linux", waylandEnv()).CaptureRegion(context.Background())
	if err == nil || !strings.Contains(err.Error(), `slurp printed "somewhere", not a region`) {
		t.Fatalf("err = %v", err)
	}
}

func TestCaptureNoTool(t *testing.T) {
	for _, tt := range []struct {
		name  string
		goos  string
		env   map[string]string
		tools []string
		want  string
	}{
		{"wayland none", "linux", waylandEnv(), nil, "cannot take a screenshot: install grim and slurp for Wayland, or set screenshot_cmd in the config"},
		{"wayland grim only", "linux", waylandEnv(), []string{"grim"}, "install slurp (grim takes the picture, slurp the region)"},
		{"wayland slurp only", "linux", waylandEnv(), []string{"slurp"}, "install grim (slurp picks the region, grim takes the picture)"},
		{"x11", "linux", x11Env(), nil, "cannot take a screenshot: install maim (or scrot, gnome-screenshot, spectacle or flameshot) for X11, or set screenshot_cmd in the config"},
		{"console", "linux", map[string]string{}, nil, "cannot take a screenshot: there is no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set); attach an image file instead"},
		{"ssh", "linux", map[string]string{"SSH_CONNECTION": "1 2 3 4"}, nil, "parley runs over SSH without a graphical session"},
		{"macos", "darwin", nil, nil, "screencapture was not found on PATH; it comes with macOS"},
		{"windows", "windows", nil, nil, "cannot take a screenshot: PowerShell (powershell.exe) was not found on PATH"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			for _, name := range tt.tools {
				f.add(name, "exit 0")
			}
			_, err := f.system(tt.goos, tt.env).CaptureRegion(context.Background())
			if !errors.Is(err, ErrNoTool) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrNoTool saying %q", err, tt.want)
			}
		})
	}
}

// On X11 the first installed tool of the list takes the screenshot, into
// the file parley names.
func TestCaptureX11Tools(t *testing.T) {
	for _, tt := range []struct {
		tools []string // installed
		used  string
		args  string // the arguments before the file
	}{
		{[]string{"maim", "scrot", "flameshot"}, "maim", "-s"},
		{[]string{"scrot", "spectacle"}, "scrot", "-s"},
		{[]string{"gnome-screenshot", "spectacle"}, "gnome-screenshot", "-a -f"},
		{[]string{"spectacle", "flameshot"}, "spectacle", "-r -b -n -o"},
	} {
		t.Run(tt.used, func(t *testing.T) {
			f := newFakes(t)
			png := screenshotPNG(t)
			f.file("shot.png", png)
			for _, name := range tt.tools {
				f.add(name, toFileScript)
			}
			shot, err := f.system("linux", x11Env()).CaptureRegion(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(shot.Image, png) || shot.Tool != tt.used {
				t.Fatalf("got %d bytes from %q", len(shot.Image), shot.Tool)
			}
			calls := f.calls(tt.used)
			if len(calls) != 1 || !strings.HasPrefix(calls[0], tt.args+" ") || !strings.HasSuffix(calls[0], "/screenshot.png") {
				t.Fatalf("%s ran with %q", tt.used, calls)
			}
			// The temporary folder is gone with the file in it.
			file := strings.TrimPrefix(calls[0], tt.args+" ")
			if _, err := os.Stat(filepath.Dir(file)); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the temporary folder %s is still there (%v)", filepath.Dir(file), err)
			}
			for _, other := range tt.tools[1:] {
				if c := f.calls(other); c != nil {
					t.Fatalf("%s ran too: %q", other, c)
				}
			}
		})
	}
}

func TestCaptureFlameshotStdout(t *testing.T) {
	f := newFakes(t)
	png := screenshotPNG(t)
	f.file("shot.png", png)
	f.add("flameshot", `[ "$*" = "gui --raw" ] || exit 2; exec /bin/cat "$T/shot.png"`)
	shot, err := f.system("linux", x11Env()).CaptureRegion(context.Background())
	if err != nil || !bytes.Equal(shot.Image, png) || shot.Tool != "flameshot" {
		t.Fatalf("err %v, %d bytes from %q", err, len(shot.Image), shot.Tool)
	}
}

// A tool that exits 0 without writing (gnome-screenshot and screencapture
// after Esc), or exits 1 with an abort message, was cancelled.
func TestCaptureCancelledWithoutFile(t *testing.T) {
	for _, tt := range []struct {
		tool, body, goos string
		env              map[string]string
	}{
		{"gnome-screenshot", "exit 0", "linux", x11Env()},
		{"maim", `echo "Selection was cancelled by keystroke or right-click." >&2; exit 1`, "linux", x11Env()},
		{"scrot", `echo "scrot: Key was pressed, aborting selection" >&2; exit 1`, "linux", x11Env()},
		{"flameshot", `echo "flameshot: info: Screenshot aborted." >&2; exit 1`, "linux", x11Env()},
		{"screencapture", "exit 0", "darwin", nil},
	} {
		f := newFakes(t)
		f.add(tt.tool, tt.body)
		_, err := f.system(tt.goos, tt.env).CaptureRegion(context.Background())
		if !errors.Is(err, ErrCancelled) {
			t.Fatalf("%s: err = %v, want ErrCancelled", tt.tool, err)
		}
	}
}

func TestCaptureMac(t *testing.T) {
	f := newFakes(t)
	png := screenshotPNG(t)
	f.file("shot.png", png)
	f.add("screencapture", toFileScript)
	shot, err := f.system("darwin", nil).CaptureRegion(context.Background())
	if err != nil || !bytes.Equal(shot.Image, png) {
		t.Fatalf("err %v, %d bytes", err, len(shot.Image))
	}
	if calls := f.calls("screencapture"); len(calls) != 1 || !strings.HasPrefix(calls[0], "-i /") {
		t.Fatalf("screencapture ran with %q", calls)
	}
}

// screenshot_cmd wins over the desktop's tools: with {file} the command
// writes that file, without it its stdout is the image.
func TestCaptureCommand(t *testing.T) {
	for _, cmd := range []string{
		`/bin/cp "$SHOT" {file}`,
		`/bin/cat "$SHOT"`,
	} {
		f := newFakes(t)
		png := screenshotPNG(t)
		shotFile := f.file("shot.png", png)
		t.Setenv("SHOT", shotFile)
		if err := os.Symlink("/bin/sh", filepath.Join(f.dir, "sh")); err != nil {
			t.Fatal(err)
		}
		f.add("slurp", "exit 1")
		sys := f.system("linux", waylandEnv())
		sys.ScreenshotCmd = cmd
		shot, err := sys.CaptureRegion(context.Background())
		if err != nil || !bytes.Equal(shot.Image, png) || shot.Tool != "screenshot_cmd" {
			t.Fatalf("%s: err %v, %d bytes from %q", cmd, err, len(shot.Image), shot.Tool)
		}
		if c := f.calls("slurp"); c != nil {
			t.Fatalf("slurp ran: %q", c)
		}
	}
}

func TestCaptureCommandCancelled(t *testing.T) {
	f := newFakes(t)
	if err := os.Symlink("/bin/sh", filepath.Join(f.dir, "sh")); err != nil {
		t.Fatal(err)
	}
	sys := f.system("linux", x11Env())
	sys.ScreenshotCmd = "exit 1 # {file}"
	if _, err := sys.CaptureRegion(context.Background()); !errors.Is(err, ErrCancelled) {
		t.Fatalf("err = %v", err)
	}
}

// The selection waits for the user, but not for ever: past CaptureTimeout
// the tool's whole process group is killed.
func TestCaptureTimeout(t *testing.T) {
	f := newFakes(t)
	f.add("slurp", `/bin/sleep 30 & echo $! > "$T/pid"; wait`)
	f.add("grim", grimScript)
	sys := f.system("linux", waylandEnv())
	sys.Timeout = 50 * time.Millisecond // the clipboard's limit does not apply
	sys.CaptureTimeout = 700 * time.Millisecond
	start := time.Now()
	_, err := sys.CaptureRegion(context.Background())
	elapsed := time.Since(start)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if want := "cannot take a screenshot: slurp waited for a region longer than 700ms, so parley stopped it; try again"; err.Error() != want {
		t.Fatalf("err = %q", err)
	}
	if elapsed < 700*time.Millisecond || elapsed > 700*time.Millisecond+2*time.Second {
		t.Fatalf("took %v with a 700ms limit", elapsed)
	}
	pid := f.pidFrom("pid")
	killLater(t, pid)
	if !gone(pid) {
		t.Fatalf("the selection's child %d is still running", pid)
	}
}

func TestCaptureCancelledByContext(t *testing.T) {
	f := newFakes(t)
	f.add("slurp", `/bin/sleep 30 & echo $! > "$T/pid"; wait`)
	f.add("grim", grimScript)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		f.pidFrom("pid")
		cancel()
	}()
	_, err := f.system("linux", waylandEnv()).CaptureRegion(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	pid := f.pidFrom("pid")
	killLater(t, pid)
	if !gone(pid) {
		t.Fatalf("child %d still running", pid)
	}
}

func TestCaptureRefusesWhatIsNotAnImage(t *testing.T) {
	f := newFakes(t)
	f.file("shot.png", []byte("%PDF-1.7 not a picture"))
	f.add("slurp", `echo "0,0 10x10"`)
	f.add("grim", grimScript)
	_, err := f.system("linux", waylandEnv()).CaptureRegion(context.Background())
	want := "cannot attach the screenshot: grim wrote a PDF document, not a PNG, JPEG, WEBP or GIF image; check that it writes PNG (screenshot_cmd)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v", err)
	}
}

func TestCaptureOverTheCap(t *testing.T) {
	for _, tool := range []string{"grim", "maim"} {
		f := newFakes(t)
		f.file("shot.png", screenshotPNG(t))
		f.add("slurp", `echo "0,0 10x10"`)
		f.add("grim", grimScript)
		f.add("maim", toFileScript)
		env := waylandEnv()
		if tool == "maim" {
			env = x11Env()
		}
		sys := f.system("linux", env)
		sys.MaxImageBytes = 100
		_, err := sys.CaptureRegion(context.Background())
		if err == nil || !strings.Contains(err.Error(), "cannot take a screenshot: "+tool+" wrote more than parley reads (100 B)") {
			t.Fatalf("%s: err = %v", tool, err)
		}
	}
}
