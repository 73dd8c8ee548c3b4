package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.toml")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(p, 10); err != nil || string(b) != "0123456789" {
		t.Fatalf("exactly the limit: %q %v", b, err)
	}
	_, err := Read(p, 9)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 10 || tl.Limit != 9 || !strings.Contains(err.Error(), "larger than 9 B") {
		t.Fatalf("over the limit: %v", err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(link, 100); err != nil || string(b) != "0123456789" {
		t.Fatalf("through a symlink: %q %v", b, err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// TestReadFileThatGrows: a file that reports no size (as /proc files do)
// is still cut at the limit.
func TestReadFileThatGrows(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	var tl *TooLargeError
	if _, err := Read("/proc/self/maps", 16); !errors.As(err, &tl) || tl.Size != -1 {
		t.Fatalf("err %v", err)
	}
}
