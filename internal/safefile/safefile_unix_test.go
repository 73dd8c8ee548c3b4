//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesSpecialFiles: a directory, a device behind a symlink and
// a named pipe nobody writes to are each refused at once, naming what they
// are.
func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "config.toml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir:  "a directory",
		zero: "a character device",
		fifo: "a named pipe (FIFO)",
	} {
		start := time.Now()
		_, err := Read(path, 1<<20)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != want {
			t.Errorf("%s: err %v, want %s", path, err, want)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: refused after %v", path, took)
		}
	}
}
