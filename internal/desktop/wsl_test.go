//go:build unix

package desktop

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// wslEnv is the environment WSL gives a Linux process (WSLg adds a
// Wayland and an X11 display).
func wslEnv() map[string]string {
	return map[string]string{"WSL_DISTRO_NAME": "Ubuntu", "WSL_INTEROP": "/run/WSL/1_interop", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
}

// TestWSLReadsTheWindowsClipboard: in WSL the clipboard is read through
// Windows' powershell.exe (interop), the screenshot Win+Shift+S left there
// included, before WSLg's Wayland clipboard, and the answer comes on
// stdout as Base64.
func TestWSLReadsTheWindowsClipboard(t *testing.T) {
	png := screenshotPNG(t)
	f := newFakes(t)
	f.file("shot.b64", []byte(base64.StdEncoding.EncodeToString(png)))
	f.add("powershell.exe", `printf 'image\n'; /bin/cat "$T/shot.b64"`)
	f.add("wl-paste", `echo "wl-paste must not run" >&2; exit 1`)
	c, err := f.system("linux", wslEnv()).ReadClipboard(context.Background())
	if err != nil || !bytes.Equal(c.Image, png) || c.Tool != "powershell.exe" || c.Info.Width == 0 {
		t.Fatalf("got %d bytes via %q (%+v), %v", len(c.Image), c.Tool, c.Info, err)
	}
	args := strings.Fields(f.calls("powershell.exe")[0])
	if got := decodePS(t, args[len(args)-1]); got != psReadStream {
		t.Fatalf("the encoded script is\n%s", got)
	}
	if f.calls("wl-paste") != nil {
		t.Fatal("wl-paste ran in WSL")
	}
}

func TestWSLClipboardTextFilesAndFailures(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, tt := range []struct {
		name, script, want, err string
	}{
		{"text", `printf 'text\n` + b64("héllo\nwörld") + `'`, "héllo\nwörld", ""},
		{"files", `printf 'files\n` + b64(`C:\Users\me\Pictures\a b.png`+"\r\n"+`\\wsl.localhost\Ubuntu\home\me\c.png`+"\n"+`\\server\share\d.png`) + `'`,
			`"/mnt/c/Users/me/Pictures/a b.png"` + "\n" + `"/home/me/c.png"` + "\n" + `"\\server\share\d.png"`, ""},
		{"empty", `echo empty`, "", "the clipboard is empty"},
		{"damaged", `printf 'image\n!!!'`, "", "its Base64 is damaged"},
		{"not powershell", `echo what`, "", `answered "what" instead of what parley asked for`},
		{"failed", `echo "Add-Type: cannot load" >&2; exit 1`, "", "powershell.exe failed (exit status 1: Add-Type: cannot load)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakes(t)
			f.add("powershell.exe", tt.script)
			c, err := f.system("linux", wslEnv()).ReadClipboard(context.Background())
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to say %q", err, tt.err)
				}
				return
			}
			if err != nil || c.Text != tt.want {
				t.Fatalf("got %q, %v; want %q", c.Text, err, tt.want)
			}
		})
	}
	t.Run("interop off", func(t *testing.T) {
		// No powershell.exe on PATH: WSLg's Wayland clipboard is read.
		f := newFakes(t)
		f.add("wl-paste", `case "$*" in *list-types*) echo text/plain;; *) printf 'from wayland';; esac`)
		c, err := f.system("linux", wslEnv()).ReadClipboard(context.Background())
		if err != nil || c.Text != "from wayland" {
			t.Fatalf("got %q, %v", c.Text, err)
		}
	})
}

// TestWSLCopies: text and images go to the Windows clipboard through
// powershell.exe, as Base64 on its stdin.
func TestWSLCopies(t *testing.T) {
	png := screenshotPNG(t)
	f := newFakes(t)
	f.add("powershell.exe", `/bin/cat > "$T/in.b64"`)
	sys := f.system("linux", wslEnv())
	if err := sys.CopyText(context.Background(), "copié"); err != nil {
		t.Fatal(err)
	}
	if got, _ := base64.StdEncoding.DecodeString(f.read("in.b64")); string(got) != "copié" {
		t.Fatalf("powershell.exe was given %q", got)
	}
	args := strings.Fields(f.calls("powershell.exe")[0])
	if !strings.Contains(decodePS(t, args[len(args)-1]), "if ('text' -eq 'image')") {
		t.Fatal("the text copy's script does not copy text")
	}
	if err := sys.CopyImage(context.Background(), png); err != nil {
		t.Fatal(err)
	}
	if got, _ := base64.StdEncoding.DecodeString(f.read("in.b64")); !bytes.Equal(got, png) {
		t.Fatalf("powershell.exe was given %d bytes, want the PNG", len(got))
	}
	args = strings.Fields(f.calls("powershell.exe")[1])
	if !strings.Contains(decodePS(t, args[len(args)-1]), "if ('image' -eq 'image')") {
		t.Fatal("the image copy's script does not copy an image")
	}
}

// TestWSLScreenshot: /screenshot in WSL runs the Windows region capture
// (the Snipping Tool's overlay) and takes the image it leaves on the
// clipboard; closing the overlay is a cancel.
func TestWSLScreenshot(t *testing.T) {
	png := screenshotPNG(t)
	f := newFakes(t)
	f.file("shot.b64", []byte(base64.StdEncoding.EncodeToString(png)))
	f.add("powershell.exe", `printf 'image\n'; /bin/cat "$T/shot.b64"`)
	shot, err := f.system("linux", wslEnv()).CaptureRegion(context.Background())
	if err != nil || !bytes.Equal(shot.Image, png) {
		t.Fatalf("got %d bytes, %v", len(shot.Image), err)
	}
	args := strings.Fields(f.calls("powershell.exe")[0])
	if got := decodePS(t, args[len(args)-1]); got != psCapture {
		t.Fatalf("the capture script is\n%s", got)
	}
	f.add("powershell.exe", `echo cancelled`)
	if _, err := f.system("linux", wslEnv()).CaptureRegion(context.Background()); !errors.Is(err, ErrCancelled) {
		t.Fatalf("a closed overlay: %v, want ErrCancelled", err)
	}
}
