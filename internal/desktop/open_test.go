//go:build unix

package desktop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func imageFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "shot one.png")
	if err := os.WriteFile(p, screenshotPNG(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenXdgOpen(t *testing.T) {
	f := newFakes(t)
	f.add("xdg-open", `exit 0`)
	p := imageFile(t)
	if err := f.system("linux", x11Env()).Open(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if got := f.calls("xdg-open"); !slices.Equal(got, []string{p}) {
		t.Fatalf("xdg-open ran with %q", got)
	}
}

// A relative path is made absolute: the viewer does not start in parley's
// working directory, and a name starting with "-" is no option.
func TestOpenRelativePath(t *testing.T) {
	f := newFakes(t)
	f.add("xdg-open", `exit 0`)
	p := imageFile(t)
	t.Chdir(filepath.Dir(p))
	if err := f.system("linux", waylandEnv()).Open(context.Background(), "shot one.png"); err != nil {
		t.Fatal(err)
	}
	if got := f.calls("xdg-open"); len(got) != 1 || !filepath.IsAbs(got[0]) || filepath.Base(got[0]) != "shot one.png" {
		t.Fatalf("xdg-open ran with %q", got)
	}
}

// A viewer the opener runs in its foreground is left running in a session
// of its own, and Open returns at the time limit.
func TestOpenLeavesTheViewerRunning(t *testing.T) {
	f := newFakes(t)
	f.add("xdg-open", `echo $$ > "$T/pid"; exec /bin/sleep 30`)
	sys := f.system("linux", x11Env())
	sys.Timeout = 300 * time.Millisecond
	start := time.Now()
	if err := sys.Open(context.Background(), imageFile(t)); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 300*time.Millisecond+time.Second {
		t.Fatalf("Open took %v", d)
	}
	pid := f.pidFrom("pid")
	killLater(t, pid)
	if gone(pid) {
		t.Fatal("the viewer was stopped")
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Skip("no /proc to check the session:", err)
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	if sid := fields[3]; sid != strconv.Itoa(pid) {
		t.Fatalf("the viewer is in session %s, not one of its own", sid)
	}
}

func TestOpenFailures(t *testing.T) {
	t.Run("no default app", func(t *testing.T) {
		f := newFakes(t)
		f.add("xdg-open", `echo "xdg-open: no method available for opening '$1'" >&2; exit 3`)
		p := imageFile(t)
		err := f.system("linux", x11Env()).Open(context.Background(), p)
		want := `cannot open "` + p + `": xdg-open failed (exit status 3: xdg-open: no method available for opening '` + p +
			`'); set a default app for this kind of file (for PNG: xdg-mime default <app>.desktop image/png)`
		var te *ToolError
		if !errors.As(err, &te) || err.Error() != want {
			t.Fatalf("err = %v\nwant  %s", err, want)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		f := newFakes(t)
		f.add("xdg-open", `exit 0`)
		p := filepath.Join(t.TempDir(), "gone.png")
		err := f.system("linux", x11Env()).Open(context.Background(), p)
		if err == nil || err.Error() != `cannot open "`+p+`": there is no such file; it may have been moved or deleted` {
			t.Fatalf("err = %v", err)
		}
		if f.calls("xdg-open") != nil {
			t.Fatal("xdg-open ran")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		f := newFakes(t)
		f.add("xdg-open", `echo $$ > "$T/pid"; exec /bin/sleep 30`)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			f.pidFrom("pid")
			cancel()
		}()
		if err := f.system("linux", x11Env()).Open(ctx, imageFile(t)); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		killLater(t, f.pidFrom("pid"))
	})
}

func TestOpenOtherSystems(t *testing.T) {
	t.Run("macOS", func(t *testing.T) {
		f := newFakes(t)
		f.add("open", `exit 0`)
		p := imageFile(t)
		if err := f.system("darwin", nil).Open(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if got := f.calls("open"); !slices.Equal(got, []string{p}) {
			t.Fatalf("open ran with %q", got)
		}
	})
	t.Run("Windows", func(t *testing.T) {
		f := newFakes(t)
		f.add("powershell", `printf '%s' "$PARLEY_OPEN_PATH" > "$T/opened"`)
		p := imageFile(t)
		if err := f.system("windows", nil).Open(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if got := f.read("opened"); got != p {
			t.Fatalf("PowerShell was asked to open %q", got)
		}
		args := strings.Fields(f.calls("powershell")[0])
		if got := decodePS(t, args[len(args)-1]); got != psOpen {
			t.Fatalf("the encoded script is\n%s", got)
		}
	})
}

func TestOpenInstallMessages(t *testing.T) {
	p := imageFile(t)
	for _, tt := range []struct {
		name, goos string
		env        map[string]string
		want       string
	}{
		{"Wayland", "linux", waylandEnv(), `cannot open "` + p + `": install xdg-utils (xdg-open) to open files from parley`},
		{"X11", "linux", x11Env(), `cannot open "` + p + `": install xdg-utils (xdg-open) to open files from parley`},
		{"macOS", "darwin", nil, `cannot open "` + p + `": open was not found on PATH; it comes with macOS, so check PATH`},
		{"Windows", "windows", nil, `cannot open "` + p + `": PowerShell (powershell.exe) was not found on PATH; it comes with Windows, so check PATH`},
		{"console", "linux", nil, `cannot open "` + p + `": there is no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set), so there is no viewer to show it in`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := System{GOOS: tt.goos, LookPath: lookIn(""), Getenv: func(k string) string { return tt.env[k] }}
			err := sys.Open(context.Background(), p)
			if !errors.Is(err, ErrNoTool) || err.Error() != tt.want {
				t.Fatalf("err = %v\nwant %s", err, tt.want)
			}
		})
	}
}
