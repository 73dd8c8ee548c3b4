package slash

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mkfiles creates the files (and their directories) under dir; a name
// ending in "/" is an empty directory.
func mkfiles(t testing.TB, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func complValues(cs []Completion) []string {
	var out []string
	for _, c := range cs {
		v := c.Value
		if c.More {
			v += " (more)"
		}
		out = append(out, v)
	}
	return out
}

func TestCompletePath(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	mkfiles(t, home, "Pictures/a.png", "Pipes/", "pics.txt", ".config/", ".hidden.png", "Documents/")
	mkfiles(t, work, "shots/one.png", "shots/two.jpg", "shots/.secret.png", "readme.md")
	opt := PathOptions{Dir: work, Home: home}
	ctx := context.Background()
	cases := []struct {
		partial string
		want    []string
	}{
		{"~", []string{"~/ (more)"}},
		// Case-exact matches first, then those matching without case.
		{"~/Pi", []string{"~/Pictures/ (more)", "~/Pipes/ (more)", "~/pics.txt"}},
		{"~/pi", []string{"~/pics.txt", "~/Pictures/ (more)", "~/Pipes/ (more)"}},
		// Hidden names only when asked for with a dot.
		{"~/", []string{"~/Documents/ (more)", "~/Pictures/ (more)", "~/Pipes/ (more)", "~/pics.txt"}},
		{"~/.", []string{"~/.config/ (more)", "~/.hidden.png"}},
		// Relative paths start at Dir and stay relative.
		{"", []string{"readme.md", "shots/ (more)"}},
		{"sh", []string{"shots/ (more)"}},
		{"shots/", []string{"shots/one.png", "shots/two.jpg"}},
		{"./shots/t", []string{"./shots/two.jpg"}},
		{"nothing", nil},
		{"missing/dir/x", nil},
		{"~someone/x", nil}, // another user's home is not expanded
	}
	for _, c := range cases {
		if got := complValues(CompletePath(ctx, c.partial, opt)); !slices.Equal(got, c.want) {
			t.Errorf("CompletePath(%q) = %q, want %q", c.partial, got, c.want)
		}
	}
	// Absolute paths.
	abs := filepath.ToSlash(work) + "/sh"
	if got := complValues(CompletePath(ctx, abs, opt)); !slices.Equal(got, []string{filepath.ToSlash(work) + "/shots/ (more)"}) {
		t.Errorf("absolute: %q", got)
	}
	// Without a home, "~" completes nothing.
	if got := CompletePath(ctx, "~/", PathOptions{Dir: work}); got != nil {
		t.Errorf("no home: %v", got)
	}
	// Display is the name alone.
	cs := CompletePath(ctx, "~/Pi", opt)
	if cs[0].Display != "Pictures/" || cs[2].Display != "pics.txt" {
		t.Errorf("display = %q, %q", cs[0].Display, cs[2].Display)
	}
}

func TestCompletePathKeepAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.png", "b.txt", "sub/")
	if err := os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "link")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	keep := func(name string) bool { return strings.HasSuffix(name, ".png") }
	got := complValues(CompletePath(context.Background(), "", PathOptions{Dir: dir, Keep: keep}))
	// Directories stay (a link to one counts), other files go.
	if want := []string{"a.png", "link/ (more)", "sub/ (more)"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCompletePathIsBounded(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 600 {
		names = append(names, fmt.Sprintf("f%03d", i))
	}
	mkfiles(t, dir, names...)
	ctx := context.Background()
	// Reading stops after MaxEntries names.
	if got := CompletePath(ctx, "f", PathOptions{Dir: dir, MaxEntries: 300, MaxResults: 1000}); len(got) != 300 {
		t.Errorf("MaxEntries 300: %d candidates", len(got))
	}
	// At most MaxResults come back.
	if got := CompletePath(ctx, "f", PathOptions{Dir: dir, MaxResults: 10}); len(got) != 10 || got[0].Value != "f000" {
		t.Errorf("MaxResults 10: %d candidates", len(got))
	}
	// The defaults bound it too.
	if got := CompletePath(ctx, "f", PathOptions{Dir: dir}); len(got) != DefaultMaxResults {
		t.Errorf("defaults: %d candidates, want %d", len(got), DefaultMaxResults)
	}
	// A context that is done reads nothing.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if got := CompletePath(done, "f", PathOptions{Dir: dir}); len(got) != 0 {
		t.Errorf("done context: %d candidates", len(got))
	}
}

func TestCompletePathSkipsUnsafeNames(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "ok.png")
	if err := os.WriteFile(filepath.Join(dir, "bad\x1b[31m.png"), nil, 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	if got := complValues(CompletePath(context.Background(), "", PathOptions{Dir: dir})); !slices.Equal(got, []string{"ok.png"}) {
		t.Errorf("got %q", got)
	}
}

func TestExpandHome(t *testing.T) {
	home := filepath.FromSlash("/home/ada")
	cases := map[string]string{
		"~":                home,
		"~/":               home,
		"~/Pictures/a.png": filepath.Join(home, "Pictures", "a.png"),
		"~bob/x":           "~bob/x",
		"/tmp/~/x":         "/tmp/~/x",
		"rel/~":            "rel/~",
		"":                 "",
	}
	for in, want := range cases {
		if got := ExpandHome(in, home); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ExpandHome("~/x", ""); got != "~/x" {
		t.Errorf("no home: %q", got)
	}
}
