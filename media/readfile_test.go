//go:build unix

package media

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadImageFileRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zeroLink := filepath.Join(dir, "zero.png")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.png")
	if f, err := os.Create(big); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(2001) // sparse: costs no disk
		f.Close()
	}
	cases := []struct {
		name, path string
		want       string
	}{
		{"missing", filepath.Join(dir, "nope.png"), "there is no such file; check the path"},
		{"directory", dir, "it is a directory; give an image file (PNG, JPEG, WEBP or GIF)"},
		{"fifo", fifo, "it is a named pipe (FIFO), not a regular file"},
		{"dev zero", "/dev/zero", "it is a character device, not a regular file"},
		{"link to dev zero", zeroLink, "it is a character device, not a regular file"},
		{"too large", big, "the file is 2.0 KB, more than parley reads (2.0 KB); shrink it first"},
		{"empty", write("empty.png", nil), "the file is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := ReadImageFile(c.path, 2000)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
					t.Fatalf("got %v, want %q", err, c.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("ReadImageFile blocked")
			}
		})
	}
	if os.Geteuid() != 0 {
		p := write("secret.png", []byte("x"))
		os.Chmod(p, 0)
		if _, err := ReadImageFile(p, 2000); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("unreadable file: %v", err)
		}
	}
	data, err := ReadImageFile(write("ok.png", []byte("\x89PNG")), 2000)
	if err != nil || string(data) != "\x89PNG" {
		t.Fatalf("a regular file: %q, %v", data, err)
	}
}
