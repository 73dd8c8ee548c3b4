//go:build unix

package desktop

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const copiedText = "héllo\nwörld — 😀"

func TestCopyTextWayland(t *testing.T) {
	f := newFakes(t)
	// Like the real wl-copy: it reads the text and leaves a process behind
	// to serve the clipboard, holding the streams it inherited.
	f.add("wl-copy", `/bin/cat > "$T/copied"; /bin/sleep 30 & echo $! > "$T/server"; exit 0`)
	start := time.Now()
	if err := f.system("linux", waylandEnv()).CopyText(context.Background(), copiedText); err != nil {
		t.Fatal(err)
	}
	pid := f.pidFrom("server")
	killLater(t, pid)
	if d := time.Since(start); d > waitDelay {
		t.Fatalf("CopyText waited %v for the clipboard's server", d)
	}
	if got := f.read("copied"); got != copiedText {
		t.Fatalf("wl-copy received %q, want %q", got, copiedText)
	}
	if got := f.calls("wl-copy"); !slices.Equal(got, []string{"--type text/plain;charset=utf-8"}) {
		t.Fatalf("wl-copy ran with %q", got)
	}
	if gone(pid) {
		t.Fatal("the clipboard's server was killed; the copy would vanish")
	}
}

func TestCopyTextX11(t *testing.T) {
	t.Run("xclip", func(t *testing.T) {
		f := newFakes(t)
		f.add("xclip", `/bin/cat > "$T/copied"`)
		f.add("xsel", `/bin/cat > "$T/xsel"`)
		if err := f.system("linux", x11Env()).CopyText(context.Background(), copiedText); err != nil {
			t.Fatal(err)
		}
		if f.read("copied") != copiedText || f.calls("xsel") != nil {
			t.Fatalf("xclip got %q, xsel ran %q", f.read("copied"), f.calls("xsel"))
		}
		if got := f.calls("xclip"); !slices.Equal(got, []string{"-selection clipboard -i"}) {
			t.Fatalf("xclip ran with %q", got)
		}
	})
	t.Run("xsel when there is no xclip", func(t *testing.T) {
		f := newFakes(t)
		f.add("xsel", `/bin/cat > "$T/copied"`)
		if err := f.system("linux", x11Env()).CopyText(context.Background(), copiedText); err != nil {
			t.Fatal(err)
		}
		if f.read("copied") != copiedText {
			t.Fatalf("xsel got %q", f.read("copied"))
		}
		if got := f.calls("xsel"); !slices.Equal(got, []string{"--clipboard --input"}) {
			t.Fatalf("xsel ran with %q", got)
		}
	})
}

func TestCopyTextMacOS(t *testing.T) {
	f := newFakes(t)
	f.add("pbcopy", `/bin/cat > "$T/copied"; echo "$LC_ALL" > "$T/locale"`)
	if err := f.system("darwin", nil).CopyText(context.Background(), copiedText); err != nil {
		t.Fatal(err)
	}
	if f.read("copied") != copiedText {
		t.Fatalf("pbcopy got %q", f.read("copied"))
	}
	if got := strings.TrimSpace(f.read("locale")); got != "en_US.UTF-8" {
		t.Fatalf("pbcopy ran in locale %q; it must be told the text is UTF-8", got)
	}
}

func TestCopyTextWindows(t *testing.T) {
	f := newFakes(t)
	f.add("powershell", `/bin/cat "$PARLEY_CLIPBOARD_TEXT" > "$T/copied"; echo "$PARLEY_CLIPBOARD_TEXT" > "$T/path"`)
	if err := f.system("windows", nil).CopyText(context.Background(), copiedText); err != nil {
		t.Fatal(err)
	}
	if f.read("copied") != copiedText {
		t.Fatalf("PowerShell got %q", f.read("copied"))
	}
	args := strings.Fields(f.calls("powershell")[0])
	if got := decodePS(t, args[len(args)-1]); got != psWriteText {
		t.Fatalf("the encoded script is\n%s", got)
	}
	if _, err := os.Stat(strings.TrimSpace(f.read("path"))); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the temporary file was left behind: %v", err)
	}
}

// A wl-copy that never finishes (a compositor that does not answer) is
// stopped at the time limit with its children, every time: ctrl+y pressed
// three times leaves no process behind, and each copy says why it failed.
func TestCopyTextHungToolIsStopped(t *testing.T) {
	f := newFakes(t)
	f.add("wl-copy", `echo $$ >> "$T/tools"; /bin/sleep 60 & echo $! >> "$T/children"; wait`)
	sys := f.system("linux", waylandEnv())
	sys.Timeout = 300 * time.Millisecond
	const bound = 300*time.Millisecond + waitDelay + time.Second
	for i := range 3 {
		start := time.Now()
		err := sys.CopyText(context.Background(), copiedText)
		took := time.Since(start)
		want := "cannot copy the text to the system clipboard: wl-copy did not answer within 300ms, so parley stopped it; try again"
		if !errors.Is(err, ErrTimeout) || err.Error() != want {
			t.Fatalf("copy %d: err = %v\nwant %s", i+1, err, want)
		}
		if took > bound {
			t.Fatalf("copy %d returned after %v; the bound is %v", i+1, took, bound)
		}
	}
	var pids []int
	for _, file := range []string{"tools", "children"} {
		for _, l := range strings.Fields(f.read(file)) {
			pid, err := strconv.Atoi(l)
			if err != nil {
				t.Fatalf("%s holds %q", file, l)
			}
			killLater(t, pid)
			pids = append(pids, pid)
		}
	}
	if len(pids) != 6 {
		t.Fatalf("three copies started %d processes (%v); want a wl-copy and its child each", len(pids), pids)
	}
	for _, pid := range pids {
		if !gone(pid) {
			t.Errorf("process %d is still running after its copy timed out", pid)
		}
	}
}

func TestCopyTextRefusals(t *testing.T) {
	for _, tt := range []struct {
		name, goos string
		env        map[string]string
		want       string
	}{
		{"Wayland", "linux", waylandEnv(), "cannot copy the text to the system clipboard: install wl-clipboard (wl-copy) for Wayland"},
		{"X11", "linux", x11Env(), "cannot copy the text to the system clipboard: install xclip or xsel for X11"},
		{"macOS", "darwin", nil, "cannot copy the text to the system clipboard: pbcopy was not found on PATH; it comes with macOS, so check PATH"},
		{"Windows", "windows", nil, "cannot copy the text to the system clipboard: PowerShell (powershell.exe) was not found on PATH; it comes with Windows, so check PATH"},
		{"SSH", "linux", map[string]string{"SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22"}, "cannot copy the text to the system clipboard: parley runs over SSH without a graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := System{GOOS: tt.goos, LookPath: lookIn(""), Getenv: func(k string) string { return tt.env[k] }}
			err := sys.CopyText(context.Background(), copiedText)
			if !errors.Is(err, ErrNoTool) || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
	t.Run("empty text", func(t *testing.T) {
		f := newFakes(t)
		f.add("wl-copy", `/bin/cat > "$T/copied"`)
		err := f.system("linux", waylandEnv()).CopyText(context.Background(), "")
		if err == nil || err.Error() != "cannot copy the text to the system clipboard: there is no text to copy" || f.calls("wl-copy") != nil {
			t.Fatalf("err = %v, wl-copy ran %q", err, f.calls("wl-copy"))
		}
	})
	t.Run("the tool fails", func(t *testing.T) {
		f := newFakes(t)
		f.add("wl-copy", `echo "Failed to connect to a Wayland server" >&2; exit 1`)
		err := f.system("linux", waylandEnv()).CopyText(context.Background(), copiedText)
		var te *ToolError
		if !errors.As(err, &te) || err.Error() != "cannot copy the text to the system clipboard: wl-copy failed (exit status 1: Failed to connect to a Wayland server)" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		f := newFakes(t)
		f.add("wl-copy", `/bin/cat > "$T/copied"`)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := f.system("linux", waylandEnv()).CopyText(ctx, copiedText); !errors.Is(err, context.Canceled) || f.calls("wl-copy") != nil {
			t.Fatalf("err = %v, wl-copy ran %q", err, f.calls("wl-copy"))
		}
	})
}
