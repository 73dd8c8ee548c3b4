//go:build unix

package desktop

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/media"
	"parley/media/mediatest"
)

func TestCopyImageWayland(t *testing.T) {
	f := newFakes(t)
	// Like the real wl-copy, it reads the image and leaves a process behind
	// to serve the clipboard; that process keeps the streams it inherited.
	f.add("wl-copy", `/bin/cat > "$T/copied"; /bin/sleep 30 & echo $! > "$T/server"; exit 0`)
	png := screenshotPNG(t)
	start := time.Now()
	if err := f.system("linux", waylandEnv()).CopyImage(context.Background(), png); err != nil {
		t.Fatal(err)
	}
	pid := f.pidFrom("server")
	killLater(t, pid)
	if d := time.Since(start); d > waitDelay {
		t.Fatalf("CopyImage waited %v for the clipboard's server", d)
	}
	if got := f.read("copied"); got != string(png) {
		t.Fatalf("wl-copy received %d bytes, want the %d of the PNG", len(got), len(png))
	}
	if got := f.calls("wl-copy"); !slices.Equal(got, []string{"--type image/png"}) {
		t.Fatalf("wl-copy ran with %q", got)
	}
	if gone(pid) {
		t.Fatal("the clipboard's server was killed; the copy would vanish")
	}
}

func TestCopyImageX11ConvertsToPNG(t *testing.T) {
	f := newFakes(t)
	f.add("xclip", `/bin/cat > "$T/copied"`)
	// A JPEG taken in portrait (EXIF orientation 6: rotate 90°) arrives as
	// an upright PNG.
	jpg := mediatest.WithEXIFOrientation(mediatest.JPEG(t, mediatest.Photo(64, 48), 90), 6)
	if err := f.system("linux", x11Env()).CopyImage(context.Background(), jpg); err != nil {
		t.Fatal(err)
	}
	got := []byte(f.read("copied"))
	info, err := media.Inspect(got)
	if err != nil || info.Format != media.PNG || info.Width != 48 || info.Height != 64 {
		t.Fatalf("xclip received %+v, %v; want a 48x64 PNG", info, err)
	}
	if calls := f.calls("xclip"); !slices.Equal(calls, []string{"-selection clipboard -t image/png -i"}) {
		t.Fatalf("xclip ran with %q", calls)
	}
}

func TestCopyImageMacOS(t *testing.T) {
	f := newFakes(t)
	f.add("osascript", `for a; do last=$a; done; echo "$last" > "$T/path"; /bin/cat "$last" > "$T/copied"`)
	png := screenshotPNG(t)
	if err := f.system("darwin", nil).CopyImage(context.Background(), png); err != nil {
		t.Fatal(err)
	}
	if f.read("copied") != string(png) {
		t.Fatal("osascript did not get the PNG")
	}
	args := f.calls("osascript")[0]
	if !strings.Contains(args, "set the clipboard to (read (POSIX file (item 1 of argv)) as «class PNGf»)") {
		t.Fatalf("osascript ran with %q", args)
	}
	if _, err := os.Stat(strings.TrimSpace(f.read("path"))); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the temporary file was left behind: %v", err)
	}
}

func TestCopyImageWindows(t *testing.T) {
	f := newFakes(t)
	f.add("powershell", `/bin/cat "$PARLEY_CLIPBOARD_IMAGE" > "$T/copied"`)
	png := screenshotPNG(t)
	if err := f.system("windows", nil).CopyImage(context.Background(), png); err != nil {
		t.Fatal(err)
	}
	if f.read("copied") != string(png) {
		t.Fatal("PowerShell did not get the PNG")
	}
	args := strings.Fields(f.calls("powershell")[0])
	if got := decodePS(t, args[len(args)-1]); got != psWrite {
		t.Fatalf("the encoded script is\n%s", got)
	}
}

func TestCopyImageFailures(t *testing.T) {
	png := screenshotPNG(t)
	t.Run("not an image", func(t *testing.T) {
		f := newFakes(t)
		f.add("wl-copy", `/bin/cat > "$T/copied"`)
		err := f.system("linux", waylandEnv()).CopyImage(context.Background(), []byte("%PDF-1.7"))
		if err == nil || err.Error() != "cannot copy the image: it is not a PNG, JPEG, WEBP or GIF image" {
			t.Fatalf("err = %v", err)
		}
		if f.calls("wl-copy") != nil {
			t.Fatal("wl-copy ran")
		}
	})
	t.Run("a bomb is not decoded", func(t *testing.T) {
		f := newFakes(t)
		f.add("wl-copy", `/bin/cat > "$T/copied"`)
		jpg := mediatest.FlatJPEG(60000, 60000, mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr444(), Adobe: -1})
		err := f.system("linux", waylandEnv()).CopyImage(context.Background(), jpg)
		if err == nil || !strings.Contains(err.Error(), "more than parley decodes") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("the tool fails", func(t *testing.T) {
		f := newFakes(t)
		f.add("wl-copy", `echo "Failed to connect to a Wayland server" >&2; exit 1`)
		err := f.system("linux", waylandEnv()).CopyImage(context.Background(), png)
		var te *ToolError
		if !errors.As(err, &te) || err.Error() != "cannot copy the image: wl-copy failed (exit status 1: Failed to connect to a Wayland server)" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("the tool hangs", func(t *testing.T) {
		f := newFakes(t)
		f.add("xclip", `/bin/sleep 30 & echo $! > "$T/pid"; wait`)
		sys := f.system("linux", x11Env())
		sys.Timeout = 300 * time.Millisecond
		start := time.Now()
		err := sys.CopyImage(context.Background(), png)
		if !errors.Is(err, ErrTimeout) || err.Error() != "cannot copy the image: xclip did not answer within 300ms, so parley stopped it; try again" {
			t.Fatalf("err = %v", err)
		}
		if d := time.Since(start); d > 300*time.Millisecond+time.Second {
			t.Fatalf("took %v", d)
		}
		pid := f.pidFrom("pid")
		killLater(t, pid)
		if !gone(pid) {
			t.Fatalf("child %d still running", pid)
		}
	})
}

func TestCopyImageInstallMessages(t *testing.T) {
	png := screenshotPNG(t)
	for _, tt := range []struct {
		name, goos string
		env        map[string]string
		want       string
	}{
		{"Wayland", "linux", waylandEnv(), "cannot copy the image: install wl-clipboard (wl-copy) for Wayland; the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images"},
		{"X11", "linux", x11Env(), "cannot copy the image: install xclip for X11; the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images"},
		{"macOS", "darwin", nil, "cannot copy the image: osascript was not found on PATH; it comes with macOS, so check PATH; the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images"},
		{"Windows", "windows", nil, "cannot copy the image: PowerShell (powershell.exe) was not found on PATH; it comes with Windows, so check PATH"},
		{"SSH", "linux", map[string]string{"SSH_TTY": "/dev/pts/3"}, "cannot copy the image: parley runs over SSH without a graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set); the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images; copy the file's path instead"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := System{GOOS: tt.goos, LookPath: lookIn(""), Getenv: func(k string) string { return tt.env[k] }}
			err := sys.CopyImage(context.Background(), png)
			if !errors.Is(err, ErrNoTool) || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestAsPNGKeepsPNGBytes(t *testing.T) {
	png := screenshotPNG(t)
	got, err := asPNG(context.Background(), png)
	if err != nil || !bytes.Equal(got, png) {
		t.Fatalf("asPNG changed a PNG: %v", err)
	}
}
