//go:build unix

package desktop

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"parley/media"
	"parley/media/mediatest"
)

// wlPasteScript is a fake wl-paste offering types (one a line) and
// printing the file $T/<type with / replaced by _> for --type.
const wlPasteScript = `case "$1" in
--list-types) /bin/cat "$T/types" ;;
--type) t=$(printf '%s' "$2" | /usr/bin/tr '/;' '__'); exec /bin/cat "$T/$t" ;;
--no-newline) t=$(printf '%s' "$3" | /usr/bin/tr '/;' '__'); exec /bin/cat "$T/$t" ;;
*) echo "unexpected arguments: $*" >&2; exit 2 ;;
esac`

// xclipScript is the same for xclip -selection clipboard -t TYPE -o.
const xclipScript = `[ "$1 $2 $5" = "-selection clipboard -o" ] || { echo "unexpected arguments: $*" >&2; exit 2; }
if [ "$4" = TARGETS ]; then exec /bin/cat "$T/types"; fi
t=$(printf '%s' "$4" | /usr/bin/tr '/;' '__'); exec /bin/cat "$T/$t"`

func offer(f *fakes, types ...string) {
	f.file("types", []byte(strings.Join(types, "\n")+"\n"))
}

func content(f *fakes, typ string, data []byte) {
	f.file(strings.NewReplacer("/", "_", ";", "_").Replace(typ), data)
}

func screenshotPNG(t *testing.T) []byte {
	return mediatest.PNG(t, mediatest.Screenshot(320, 200))
}

func TestWaylandImage(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", wlPasteScript)
	png := screenshotPNG(t)
	offer(f, "image/jpeg", "image/png", "text/html", "chromium/x-source-url")
	content(f, "image/png", png)
	c, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsImage() || !bytes.Equal(c.Image, png) || c.Text != "" || c.Tool != "wl-paste" {
		t.Fatalf("got image %d bytes, text %q, tool %q", len(c.Image), c.Text, c.Tool)
	}
	if c.Info.Format != media.PNG || c.Info.Width != 320 || c.Info.Height != 200 {
		t.Fatalf("Info = %+v", c.Info)
	}
	want := []string{"--list-types", "--type image/png"}
	if got := f.calls("wl-paste"); !slices.Equal(got, want) {
		t.Fatalf("wl-paste ran with %q, want %q", got, want)
	}
}

func TestWaylandImageFormats(t *testing.T) {
	for _, tt := range []struct {
		types []string
		read  string
		data  func(t *testing.T) []byte
	}{
		{[]string{"image/gif", "image/jpeg"}, "image/jpeg", func(t *testing.T) []byte { return mediatest.JPEG(t, mediatest.Photo(40, 30), 80) }},
		{[]string{"image/gif", "image/webp"}, "image/webp", func(*testing.T) []byte { return mediatest.SolidWEBP(40, 30, color.NRGBA{R: 200, A: 255}) }},
		{[]string{"image/x-something", "image/gif"}, "image/gif", func(t *testing.T) []byte { return mediatest.GIF(t, 1, 40, 30) }},
		// An odd name for PNG: taken as the only image type, known by its bytes.
		{[]string{"image/x-png"}, "image/x-png", screenshotPNG},
	} {
		f := newFakes(t)
		f.add("wl-paste", wlPasteScript)
		offer(f, tt.types...)
		data := tt.data(t)
		content(f, tt.read, data)
		c, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
		if err != nil || !bytes.Equal(c.Image, data) {
			t.Fatalf("offering %q: %d bytes, %v", tt.types, len(c.Image), err)
		}
		if got := f.calls("wl-paste"); len(got) != 2 || got[1] != "--type "+tt.read {
			t.Fatalf("offering %q: wl-paste ran with %q, want --type %s", tt.types, got, tt.read)
		}
	}
}

func TestWaylandText(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", wlPasteScript)
	offer(f, "TEXT", "STRING", "text/plain;charset=utf-8", "UTF8_STRING", "text/plain")
	content(f, "text/plain;charset=utf-8", []byte("héllo\nworld\n"))
	c, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.IsImage() || c.Text != "héllo\nworld\n" {
		t.Fatalf("got image %v, text %q", c.IsImage(), c.Text)
	}
	if got := f.calls("wl-paste"); got[1] != "--no-newline --type text/plain;charset=utf-8" {
		t.Fatalf("wl-paste read with %q", got[1])
	}
}

// A spreadsheet offers a picture of the copied cells beside their text:
// the text is what the user wants in a chat.
func TestTextWinsOverAnImage(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", wlPasteScript)
	offer(f, "image/png", "image/bmp", "text/html", "text/plain;charset=utf-8")
	content(f, "text/plain;charset=utf-8", []byte("A1\tB1\n"))
	c, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	if err != nil || c.Text != "A1\tB1\n" || c.IsImage() {
		t.Fatalf("got text %q, image %v, err %v", c.Text, c.IsImage(), err)
	}
}

// A file manager's copy is read as its URI list, which keeps names with
// spaces whole; comment lines are dropped.
func TestCopiedFilesComeAsURIs(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", wlPasteScript)
	offer(f, "x-special/gnome-copied-files", "text/uri-list", "text/plain;charset=utf-8")
	content(f, "text/uri-list", []byte("# copied by Files\r\nfile:///home/ada/My%20Shot.png\r\nfile:///home/ada/b.png\r\n"))
	c, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.Text != "file:///home/ada/My%20Shot.png\r\nfile:///home/ada/b.png\r\n" {
		t.Fatalf("Text = %q", c.Text)
	}
}

// A browser's "Copy Image" may offer the image's address beside it: the
// image wins over a URI list when no plain text is offered.
func TestImageWinsOverURIsAlone(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", wlPasteScript)
	png := screenshotPNG(t)
	offer(f, "text/uri-list", "text/html", "image/png")
	content(f, "image/png", png)
	c, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	if err != nil || !bytes.Equal(c.Image, png) {
		t.Fatalf("got %d bytes, text %q, %v", len(c.Image), c.Text, err)
	}
}

func TestX11ImageAndText(t *testing.T) {
	f := newFakes(t)
	f.add("xclip", xclipScript)
	png := screenshotPNG(t)
	offer(f, "TIMESTAMP", "TARGETS", "MULTIPLE", "SAVE_TARGETS", "image/png")
	content(f, "image/png", png)
	sys := f.system("linux", x11Env())
	c, err := sys.ReadClipboard(context.Background())
	if err != nil || !bytes.Equal(c.Image, png) || c.Tool != "xclip" {
		t.Fatalf("image: %d bytes via %q, %v", len(c.Image), c.Tool, err)
	}
	want := []string{"-selection clipboard -t TARGETS -o", "-selection clipboard -t image/png -o"}
	if got := f.calls("xclip"); !slices.Equal(got, want) {
		t.Fatalf("xclip ran with %q, want %q", got, want)
	}

	offer(f, "TARGETS", "UTF8_STRING", "STRING")
	content(f, "UTF8_STRING", []byte("naïve"))
	if c, err := sys.ReadClipboard(context.Background()); err != nil || c.Text != "naïve" {
		t.Fatalf("text: %q, %v", c.Text, err)
	}
	// STRING alone is ISO 8859-1.
	offer(f, "TARGETS", "STRING")
	content(f, "STRING", []byte("na\xefve"))
	if c, err := sys.ReadClipboard(context.Background()); err != nil || c.Text != "naïve" {
		t.Fatalf("Latin-1 text: %q, %v", c.Text, err)
	}
}

// On Wayland with only xclip installed, XWayland's clipboard is read.
func TestWaylandFallsBackToXclip(t *testing.T) {
	f := newFakes(t)
	f.add("xclip", xclipScript)
	offer(f, "UTF8_STRING")
	content(f, "UTF8_STRING", []byte("from XWayland"))
	env := waylandEnv()
	env["DISPLAY"] = ":1"
	c, err := f.system("linux", env).ReadClipboard(context.Background())
	if err != nil || c.Text != "from XWayland" || c.Tool != "xclip" {
		t.Fatalf("got %q via %q, %v", c.Text, c.Tool, err)
	}
}

func TestEmptyClipboard(t *testing.T) {
	for _, tt := range []struct{ name, tool, script string }{
		{"wl-paste says so", "wl-paste", `echo "Nothing is copied" >&2; exit 1`},
		{"old wl-paste says so", "wl-paste", `echo "No selection" >&2; exit 1`},
		{"no types", "wl-paste", `exit 0`},
		{"xclip has no owner", "xclip", `echo "Error: target TARGETS not available" >&2; exit 1`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			f.add(tt.tool, tt.script)
			env := waylandEnv()
			if tt.tool == "xclip" {
				env = x11Env()
			}
			_, err := f.system("linux", env).ReadClipboard(context.Background())
			if !errors.Is(err, ErrEmpty) || err.Error() != "the clipboard is empty; copy a screenshot or some text first" {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestBadClipboardContent(t *testing.T) {
	bomb := mediatest.ClaimPNG(t, 100000, 100000, 8, mediatest.RGBA)
	for _, tt := range []struct {
		name  string
		types []string
		data  []byte
		want  string
	}{
		{"HTML under an image type", []string{"image/png"}, []byte("<!DOCTYPE html><html>"),
			"cannot paste the clipboard's image: wl-paste gave an HTML page, not a PNG, JPEG, WEBP or GIF image; copy it again as PNG, or save it and attach the file"},
		{"a BMP only", []string{"image/bmp"}, append([]byte("BM"), make([]byte, 60)...),
			"wl-paste gave a BMP image, not a PNG, JPEG, WEBP or GIF image"},
		{"a decompression bomb header", []string{"image/png"}, bomb,
			"cannot paste the clipboard's image: it is 100000x100000 pixels (40.0 GB decoded), more than parley decodes (256.0 MB); copy a smaller image"},
		{"a damaged PNG", []string{"image/png"}, []byte("\x89PNG\r\n\x1a\nshort"), "it is a damaged PNG image"},
		{"no image data", []string{"image/png"}, nil, "wl-paste gave no data for image/png"},
		{"neither image nor text", []string{"application/x-qt-image-ref", "chromium/x-web-custom-data"}, nil,
			"it holds neither an image nor text (it offers application/x-qt-image-ref, chromium/x-web-custom-data); copy a screenshot or some text"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			f.add("wl-paste", wlPasteScript)
			offer(f, tt.types...)
			content(f, tt.types[0], tt.data)
			_, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestToolFailsWithSanitisedStderr(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", `printf 'Failed to connect to a Wayland server\033]0;owned\007\n' >&2; exit 1`)
	_, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	var te *ToolError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a ToolError", err)
	}
	want := `cannot read the clipboard: wl-paste failed (exit status 1: Failed to connect to a Wayland server␛]0;owned␇); run "wl-paste --list-types" in a terminal to see why`
	if err.Error() != want {
		t.Fatalf("err = %q\nwant  %q", err, want)
	}
}

func TestLongStderrIsCut(t *testing.T) {
	f := newFakes(t)
	f.add("xclip", `i=0; while [ $i -lt 200 ]; do printf 'Error: this line goes on and on\n' >&2; i=$((i+1)); done; exit 1`)
	_, err := f.system("linux", x11Env()).ReadClipboard(context.Background())
	var te *ToolError
	if !errors.As(err, &te) || len([]rune(te.Stderr)) != maxStderrRunes+1 || !strings.HasSuffix(te.Stderr, "…") {
		t.Fatalf("err = %v", err)
	}
}

// The type went away between listing and reading: someone copied again.
func TestClipboardChangedWhileReading(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", `[ "$1" = --list-types ] && { echo image/png; exit 0; }; echo "No suitable type of content copied" >&2; exit 1`)
	_, err := f.system("linux", waylandEnv()).ReadClipboard(context.Background())
	if err == nil || err.Error() != "cannot read the clipboard: it changed while parley was reading it; paste again" {
		t.Fatalf("err = %v", err)
	}
}

// A tool that hangs is killed with everything it started once the time
// limit passes, and the call returns at about that limit.
func TestHangingToolIsKilled(t *testing.T) {
	for _, step := range []string{"list", "read"} {
		t.Run(step, func(t *testing.T) {
			f := newFakes(t)
			hang := `/bin/sleep 30 & echo $! > "$T/pid"; wait`
			if step == "list" {
				f.add("wl-paste", hang)
			} else {
				f.add("wl-paste", `[ "$1" = --list-types ] && { echo image/png; exit 0; }; `+hang)
			}
			sys := f.system("linux", waylandEnv())
			sys.Timeout = 300 * time.Millisecond
			start := time.Now()
			_, err := sys.ReadClipboard(context.Background())
			elapsed := time.Since(start)
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			want := "cannot read the clipboard: wl-paste did not answer within 300ms, so parley stopped it; the program that copied may be busy or gone, so try again or copy once more"
			if err.Error() != want {
				t.Fatalf("err = %q", err)
			}
			if elapsed > 300*time.Millisecond+time.Second {
				t.Fatalf("ReadClipboard took %v with a 300ms limit", elapsed)
			}
			pid := f.pidFrom("pid")
			killLater(t, pid)
			if !gone(pid) {
				t.Fatalf("the hanging tool's child %d is still running", pid)
			}
		})
	}
}

func TestCancelStopsTheTool(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", `/bin/sleep 30 & echo $! > "$T/pid"; wait`)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		f.pidFrom("pid")
		cancel()
	}()
	start := time.Now()
	_, err := f.system("linux", waylandEnv()).ReadClipboard(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
	pid := f.pidFrom("pid")
	killLater(t, pid)
	if !gone(pid) {
		t.Fatalf("child %d still running", pid)
	}
}

// Endless output is cut at the cap: the tool is stopped, not read on. (The
// image starts like a PNG, so its first bytes do not refuse it already.)
func TestOutputIsCapped(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", `[ "$1" = --list-types ] && { echo "$KIND"; exit 0; }; [ "$KIND" = image/png ] && printf '\211PNG\r\n\032\n'; exec /bin/cat /dev/zero`)
	for _, tt := range []struct{ kind, want string }{
		{"image/png", "cannot paste the clipboard's image: it is larger than parley reads (1.0 MB); save it to a file and shrink it first"},
		{"UTF8_STRING", "cannot paste the clipboard: its text is longer than parley pastes at once (4.0 MB); save it to a file instead"},
	} {
		t.Setenv("KIND", tt.kind)
		sys := f.system("linux", waylandEnv())
		sys.MaxImageBytes = 1_000_000
		start := time.Now()
		_, err := sys.ReadClipboard(context.Background())
		if err == nil || err.Error() != tt.want {
			t.Fatalf("%s: err = %v", tt.kind, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%s: took %v", tt.kind, d)
		}
	}
}

// The message with nothing on PATH names the tool for the session type.
func TestInstallMessages(t *testing.T) {
	empty := System{LookPath: lookIn(""), Getenv: func(string) string { return "" }}
	for _, tt := range []struct {
		name string
		goos string
		env  map[string]string
		want string
	}{
		{"Wayland", "linux", waylandEnv(), "cannot read the clipboard: install wl-clipboard (wl-paste) for Wayland"},
		{"Wayland with XWayland", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "cannot read the clipboard: install wl-clipboard (wl-paste) for Wayland"},
		{"X11", "freebsd", x11Env(), "cannot read the clipboard: install xclip for X11"},
		{"macOS", "darwin", nil, "cannot read an image from the clipboard: install pngpaste (brew install pngpaste)"},
		{"Windows", "windows", nil, "cannot read the clipboard: PowerShell (powershell.exe) was not found on PATH; it comes with Windows, so check PATH"},
		{"console", "linux", nil, "cannot read the clipboard: there is no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set); paste text with your terminal's paste key, or attach the image file instead"},
		{"SSH", "linux", map[string]string{"SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22"}, "cannot read the clipboard: parley runs over SSH without a graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set); paste text with your terminal's paste key, or attach the image file instead"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := empty
			sys.GOOS = tt.goos
			sys.Getenv = func(k string) string { return tt.env[k] }
			_, err := sys.ReadClipboard(context.Background())
			if !errors.Is(err, ErrNoTool) || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// FromOS uses the real exec.LookPath and environment: the fake found on
// the process's PATH is the one that runs.
func TestFromOSFindsToolsOnPATH(t *testing.T) {
	f := newFakes(t)
	f.add("wl-paste", wlPasteScript)
	offer(f, "UTF8_STRING")
	content(f, "UTF8_STRING", []byte("from PATH"))
	t.Setenv("PATH", f.dir)
	t.Setenv("WAYLAND_DISPLAY", "wayland-9")
	sys := FromOS()
	sys.GOOS = "linux"
	c, err := sys.ReadClipboard(context.Background())
	if err != nil || c.Text != "from PATH" {
		t.Fatalf("got %q, %v", c.Text, err)
	}
}

func TestMacOS(t *testing.T) {
	png := screenshotPNG(t)
	t.Run("text first", func(t *testing.T) {
		f := newFakes(t)
		f.add("pbpaste", `printf 'copied text'`)
		f.add("pngpaste", `exit 9`)
		c, err := f.system("darwin", nil).ReadClipboard(context.Background())
		if err != nil || c.Text != "copied text" || c.Tool != "pbpaste" {
			t.Fatalf("got %q via %q, %v", c.Text, c.Tool, err)
		}
		if f.calls("pngpaste") != nil {
			t.Fatal("pngpaste ran although the clipboard held text")
		}
	})
	t.Run("pngpaste", func(t *testing.T) {
		f := newFakes(t)
		f.add("pbpaste", `exit 0`)
		f.file("shot.png", png)
		f.add("pngpaste", `exec /bin/cat "$T/shot.png"`)
		c, err := f.system("darwin", nil).ReadClipboard(context.Background())
		if err != nil || !bytes.Equal(c.Image, png) || c.Tool != "pngpaste" {
			t.Fatalf("got %d bytes via %q, %v", len(c.Image), c.Tool, err)
		}
		if got := f.calls("pngpaste"); !slices.Equal(got, []string{"-"}) {
			t.Fatalf("pngpaste ran with %q", got)
		}
	})
	t.Run("pngpaste finds nothing", func(t *testing.T) {
		f := newFakes(t)
		f.add("pbpaste", `exit 0`)
		f.add("pngpaste", `echo "No image data found on the clipboard, or could not convert!" >&2; exit 1`)
		if _, err := f.system("darwin", nil).ReadClipboard(context.Background()); !errors.Is(err, ErrEmpty) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("osascript", func(t *testing.T) {
		f := newFakes(t)
		f.add("pbpaste", `exit 0`)
		f.file("shot.png", png)
		f.add("osascript", `for a; do last=$a; done; /bin/cat "$T/shot.png" > "$last"`)
		c, err := f.system("darwin", nil).ReadClipboard(context.Background())
		if err != nil || !bytes.Equal(c.Image, png) || c.Tool != "osascript" {
			t.Fatalf("got %d bytes via %q, %v", len(c.Image), c.Tool, err)
		}
		args := f.calls("osascript")[0]
		if !strings.HasPrefix(args, "-e on run argv -e ") || !strings.Contains(args, "the clipboard as «class PNGf»") {
			t.Fatalf("osascript ran with %q", args)
		}
	})
	t.Run("osascript finds no image", func(t *testing.T) {
		f := newFakes(t)
		f.add("pbpaste", `exit 0`)
		f.add("osascript", `echo "execution error: Can’t make some data into the expected type. (-1700)" >&2; exit 1`)
		if _, err := f.system("darwin", nil).ReadClipboard(context.Background()); !errors.Is(err, ErrEmpty) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestWindows(t *testing.T) {
	png := screenshotPNG(t)
	t.Run("image", func(t *testing.T) {
		f := newFakes(t)
		f.file("shot.png", png)
		f.add("powershell", `/bin/cat "$T/shot.png" > "$PARLEY_CLIPBOARD_IMAGE"; echo image`)
		c, err := f.system("windows", nil).ReadClipboard(context.Background())
		if err != nil || !bytes.Equal(c.Image, png) || c.Tool != "powershell" {
			t.Fatalf("got %d bytes via %q, %v", len(c.Image), c.Tool, err)
		}
		args := strings.Fields(f.calls("powershell")[0])
		if len(args) != 5 || !slices.Equal(args[:4], []string{"-NoProfile", "-NonInteractive", "-STA", "-EncodedCommand"}) {
			t.Fatalf("powershell ran with %q", args)
		}
		if got := decodePS(t, args[4]); got != psRead {
			t.Fatalf("the encoded script is\n%s", got)
		}
	})
	t.Run("copied files", func(t *testing.T) {
		f := newFakes(t)
		f.add("pwsh", `printf '"C:\\Shots\\a b.png"\n"C:\\Shots\\c.png"' > "$PARLEY_CLIPBOARD_TEXT"; echo text`)
		c, err := f.system("windows", nil).ReadClipboard(context.Background())
		if err != nil || c.Text != `"C:\Shots\a b.png"`+"\n"+`"C:\Shots\c.png"` || c.Tool != "pwsh" {
			t.Fatalf("got %q via %q, %v", c.Text, c.Tool, err)
		}
	})
	t.Run("empty", func(t *testing.T) {
		f := newFakes(t)
		f.add("powershell", `echo empty`)
		if _, err := f.system("windows", nil).ReadClipboard(context.Background()); !errors.Is(err, ErrEmpty) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not PowerShell", func(t *testing.T) {
		f := newFakes(t)
		f.add("powershell", `echo 'what?'`)
		_, err := f.system("windows", nil).ReadClipboard(context.Background())
		if err == nil || !strings.Contains(err.Error(), `powershell answered "what?" instead of what parley asked for`) {
			t.Fatalf("err = %v", err)
		}
	})
}

// decodePS undoes psArgs' encoding of a script.
func decodePS(t *testing.T, enc string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(b)%2 != 0 {
		t.Fatalf("-EncodedCommand %q: %v", enc, err)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}

func TestToolThatCannotRun(t *testing.T) {
	f := newFakes(t)
	if err := os.WriteFile(filepath.Join(f.dir, "xclip"), []byte("\x7fELF\x00garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := f.system("linux", x11Env()).ReadClipboard(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "cannot read the clipboard: xclip could not be run (") {
		t.Fatalf("err = %v", err)
	}
}
