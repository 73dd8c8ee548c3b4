package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// build is the outcome of building parley once for the whole test run. It
// is written by TestMain before any test starts and only read afterwards.
var build struct {
	bin  string // path of the built binary
	skip string // why every test skips ("" = run)
	err  error  // the build failed: every test fails with this
}

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "parley-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	switch {
	case testing.Short():
		build.skip = "end-to-end tests build and run the real binary; skipped with -short"
	default:
		if _, err := exec.LookPath("tmux"); err != nil {
			build.skip = "tmux is not installed, so the end-to-end tests cannot run: install it " +
				"(Debian/Ubuntu: apt-get install -y tmux; macOS: brew install tmux) or run .ci/run, which installs it"
			break
		}
		build.bin, build.err = buildParley(dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildParley compiles the real binary, with the race detector when the
// tests have it (see raceBuild).
func buildParley(dir string) (string, error) {
	bin := filepath.Join(dir, "parley")
	args := []string{"build", "-o", bin}
	if raceBuild {
		args = append(args, "-race")
	}
	args = append(args, "parley")
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go %v: %w\n%s", args, err, out)
	}
	return bin, nil
}

// parleyBinary returns the built binary, or skips or fails the test.
func parleyBinary(t *testing.T) string {
	t.Helper()
	if build.skip != "" {
		t.Skip(build.skip)
	}
	if build.err != nil {
		t.Fatalf("building parley failed: %v", build.err)
	}
	return build.bin
}
