package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// buildVersioned compiles the real binary with extra go build flags and
// returns what its --version prints.
func buildVersioned(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "parley")
	args := append(append([]string{"build"}, flags...), "-o", bin, "parley")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("parley --version: %v\n%s", err, out)
	}
	return string(out)
}

// git runs git in this checkout; the test is skipped where there is none
// (a source archive), since then there is nothing for go build to stamp.
func git(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		t.Skipf("not a git checkout (git %s: %v); a plain build has no commit to name", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// TestPlainBuildNamesItsCommit is go build with no release flags: the
// commit, its date and whether the tree was modified come from what the go
// command stamps. -buildvcs=true is given because a GOFLAGS of
// -buildvcs=false (as on some CI machines) would otherwise turn stamping off;
// the default, auto, stamps in a checkout like this one.
func TestPlainBuildNamesItsCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	top := git(t, "rev-parse", "--show-toplevel")
	if fi, err := os.Stat(filepath.Join(top, ".git")); err != nil || !fi.IsDir() {
		// The go command looks for a .git directory; a worktree's .git is
		// a file, and nothing is stamped there.
		t.Skipf("%s is a git worktree, which go build does not stamp; a clone is", top)
	}
	head := git(t, "rev-parse", "HEAD")
	committed, err := time.Parse(time.RFC3339, git(t, "log", "-1", "--format=%cI", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	dirty := git(t, "status", "--porcelain") != ""
	got := buildVersioned(t, "-buildvcs=true")
	lines := strings.Split(got, "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "parley ") || !strings.Contains(lines[0], head[:12]) {
		t.Fatalf("--version of a plain build = %q; want the first line to carry the pseudo-version of %s", got, head[:12])
	}
	wantCommit := "commit: " + head
	if dirty {
		wantCommit += " with uncommitted changes"
	}
	if lines[1] != wantCommit {
		t.Errorf("commit line %q, want %q", lines[1], wantCommit)
	}
	if want := "date:   " + committed.UTC().Format(time.RFC3339); lines[2] != want {
		t.Errorf("date line %q, want %q", lines[2], want)
	}
}

// TestReleaseBuildNamesItself is the release's link: the -X values win and
// are printed as given (the date in UTC).
func TestReleaseBuildNamesItself(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	got := buildVersioned(t, "-buildvcs=false", "-ldflags",
		"-X parley/cli.version=9.8.7 -X parley/cli.commit=0123456789abcdef0123456789abcdef01234567 -X parley/cli.date=2026-01-02T03:04:05+01:00")
	want := "parley 9.8.7\n" +
		"commit: 0123456789abcdef0123456789abcdef01234567\n" +
		"date:   2026-01-02T02:04:05Z\n" +
		"go:     " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if got != want {
		t.Fatalf("--version of a release build:\n%s\nwant:\n%s", got, want)
	}
}
