package ui

import (
	"encoding/base64"
	"os/exec"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"parley/internal/desktop"
	"parley/media/mediatest"
)

// sshHarness is a chat over SSH (no desktop, no tools) in a terminal
// whose TERM is term.
func sshHarness(t *testing.T, term string) *harness {
	t.Helper()
	env := map[string]string{"SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22", "TERM": term}
	sys := desktop.System{Getenv: func(k string) string { return env[k] },
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound }, GOOS: "linux"}
	return newHarness(t, 100, 30, func(o *Options) {
		o.Desktop = &sys
		get := o.Getenv
		o.Getenv = func(k string) string {
			if k == "TERM" {
				return term
			}
			return get(k)
		}
	})
}

// sawType reports whether a message of the named (unexported) type came.
func sawType(h *harness, name string) bool {
	for typ := range h.seen {
		if typ.Name() == name {
			return true
		}
	}
	return false
}

// TestCtrlVOverSSHInKittyReadsTheTerminalsClipboard: over SSH ctrl+v asks
// kitty for its clipboard (OSC 5522) and attaches the image it sends.
func TestCtrlVOverSSHInKittyReadsTheTerminalsClipboard(t *testing.T) {
	h := sshHarness(t, "xterm-kitty")
	h.key("ctrl+v")
	want := "\x1b]5522;type=read;" + base64.StdEncoding.EncodeToString([]byte("image/png text/plain")) + "\x1b\\"
	h.wait("the read request", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.raw) > 0 && h.raw[len(h.raw)-1] == want
	})
	png := mediatest.PNG(t, mediatest.Screenshot(64, 40))
	data := base64.StdEncoding.EncodeToString(png)
	mime := base64.StdEncoding.EncodeToString([]byte("image/png"))
	h.send(uv.UnknownOscEvent("\x1b]5522;type=read:status=OK\x1b\\"))
	for i := 0; i < len(data); i += 4096 {
		h.send(uv.UnknownOscEvent("\x1b]5522;type=read:status=DATA:mime=" + mime + ";" + data[i:min(i+4096, len(data))] + "\x1b\\"))
	}
	h.send(uv.UnknownOscEvent("\x1b]5522;type=read:status=DONE\x1b\\"))
	h.wait("the attached image", func() bool { return len(h.attached()) == 1 })
	if a := h.attached()[0]; a.Width != 64 || a.Height != 40 {
		t.Fatalf("attached %+v", a)
	}
}

// TestCtrlVOverSSHReadsOSC52Text: in another terminal the read is OSC
// 52's, whose text is pasted; a terminal that does not answer gets one
// sentence saying what to do.
func TestCtrlVOverSSHReadsOSC52Text(t *testing.T) {
	h := sshHarness(t, "xterm-256color")
	h.key("ctrl+v")
	h.wait("the OSC 52 read", func() bool { return sawType(h, "readClipboardMsg") })
	h.send(tea.ClipboardMsg{Content: "copied on my laptop", Selection: 'c'})
	h.wait("the pasted text", func() bool { return strings.Contains(h.draft(), "copied on my laptop") })

	h = sshHarness(t, "xterm-256color")
	h.key("ctrl+v")
	h.wait("the sentence", func() bool {
		flat := strings.Join(strings.Fields(h.screen()), " ")
		return strings.Contains(flat, "did not answer a clipboard read (OSC 52); paste text with your terminal's paste key, or attach the image file")
	})
}
