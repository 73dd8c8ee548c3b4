//go:build unix

package session

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// asUserEnv marks the copy of the test binary that runTestAsUser starts.
const asUserEnv = "PARLEY_SESSION_TEST_AS_USER"

// runTestAsUser runs one test of this package in a copy of the test
// binary as the unprivileged user "nobody": root ignores file permissions,
// so a read-only folder can only be tested without it.
func runTestAsUser(t *testing.T, name string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	// The test's temporary folders are private; nobody must reach the copy.
	os.Chmod(filepath.Dir(base), 0o755)
	os.Chmod(base, 0o755)
	bin := filepath.Join(base, "session.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(base, "tmp")
	os.Mkdir(tmp, 0o777)
	os.Chmod(tmp, 0o1777)
	cmd := exec.Command(bin, "-test.run", "^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = []string{asUserEnv + "=1", "TMPDIR=" + tmp, "PATH=" + os.Getenv("PATH")}
	cmd.Dir = tmp
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("%s as user nobody: %v\n%s", name, err, out)
	}
}

// TestReadOnlyDataDirectory: a data folder the user cannot write stops
// the store at Open (never half-way through a conversation) with a
// message that names the path and what to do.
func TestReadOnlyDataDirectory(t *testing.T) {
	if os.Geteuid() == 0 && os.Getenv(asUserEnv) == "" {
		runTestAsUser(t, "TestReadOnlyDataDirectory")
		return
	}
	ctx := context.Background()
	check := func(what, dir string, err error) {
		t.Helper()
		var se *Error
		if !errors.As(err, &se) || se.Kind != KindReadOnly {
			t.Fatalf("%s: Open = %v, want a read-only error", what, err)
		}
		for _, w := range []string{filepath.Join(dir, DBName), "chmod u+rwx " + dir, "history = false"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", what, err, w)
			}
		}
	}

	// The data folder cannot be made.
	parent := t.TempDir()
	os.Chmod(parent, 0o500)
	defer os.Chmod(parent, 0o700)
	dir := filepath.Join(parent, "parley")
	_, err := Open(ctx, dir, Options{})
	check("folder cannot be made", dir, err)

	// A history that exists in a folder that became read-only.
	dir = filepath.Join(t.TempDir(), "parley")
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := s.NewRecorder(ctx)
	chat(t, r, newClock(), "", "q", "a")
	r.Close()
	s.Close()
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	_, err = Open(ctx, dir, Options{})
	check("read-only folder", dir, err)

	// A database file that is read-only in a writable folder.
	os.Chmod(dir, 0o700)
	os.Chmod(filepath.Join(dir, DBName), 0o400)
	_, err = Open(ctx, dir, Options{})
	var se *Error
	if !errors.As(err, &se) || (se.Kind != KindReadOnly && se.Kind != KindUnreadable) || !strings.Contains(err.Error(), "chmod u+rw "+filepath.Join(dir, DBName)) {
		t.Fatalf("read-only file: Open = %v", err)
	}
}
