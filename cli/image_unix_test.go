//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestImageEditReadsOnlyRegularFiles: --edit and --mask refuse FIFOs,
// devices and directories without blocking or reading them, before any
// request.
func TestImageEditReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	img := writePNG(t, dir, "room.png", 64, 64, false)
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--edit", "/dev/zero"}, "cannot use /dev/zero as the --edit image: it is a character device, not a regular file"},
		{[]string{"--edit", fifo}, "it is a named pipe (FIFO), not a regular file"},
		{[]string{"--edit", dir}, "it is a directory"},
		{[]string{"--edit", filepath.Join(dir, "missing.png")}, "there is no such file; check the path"},
		{[]string{"--edit", img, "--mask", "/dev/zero"}, "cannot use /dev/zero as the --mask: it is a character device"},
		{[]string{"--edit", writeTestText(t, dir, "notes.png", "hello")}, "it is text; give a PNG, JPEG, WEBP or GIF image"},
	}
	for _, c := range cases {
		h := newHarness(t)
		r := h.run(nil, append([]string{"image", "-m", "gpt-image-1"}, append(c.args, "x")...)...)
		r.mustCode(t, 2)
		if !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(c.want)) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: stderr %q, want %q", c.args, r.stderr, c.want)
		}
		if n := h.gw.RequestCount(); n != 0 {
			t.Errorf("%v: %d requests sent", c.args, n)
		}
	}
}
