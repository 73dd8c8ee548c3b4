//go:build unix

package desktop

import (
	"strings"
	"testing"
)

func TestClipboardRoute(t *testing.T) {
	for _, tt := range []struct {
		name  string
		goos  string
		env   map[string]string
		tools []string
		want  string
	}{
		{"wsl", "linux", wslEnv(), []string{"powershell.exe", "wl-paste"}, "Windows' clipboard through powershell.exe (WSL)"},
		{"wsl without interop", "linux", wslEnv(), []string{"wl-paste"}, "wl-paste and wl-copy (Wayland)"},
		{"wayland without tools", "linux", waylandEnv(), nil, "install wl-clipboard"},
		{"x11", "linux", x11Env(), []string{"xsel"}, "xsel (X11)"},
		{"ssh", "linux", map[string]string{"SSH_TTY": "/dev/pts/1"}, nil, "no desktop clipboard over SSH"},
		{"macos", "darwin", nil, nil, "(macOS)"},
		{"windows", "windows", nil, []string{"pwsh"}, "pwsh (Windows)"},
	} {
		f := newFakes(t)
		for _, name := range tt.tools {
			f.add(name, "exit 0")
		}
		if got := f.system(tt.goos, tt.env).ClipboardRoute(); !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want it to say %q", tt.name, got, tt.want)
		}
	}
}
