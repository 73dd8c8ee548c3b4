package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"parley/cli"
)

func TestWritesAPagePerCommandAndTheShellsScripts(t *testing.T) {
	out := t.TempDir()
	// A page left by an earlier run for a command that is gone.
	if err := os.MkdirAll(filepath.Join(out, "man"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "man", "parley-gone.1.gz"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(out, "v1.2.3", "2026-11-29T05:40:26+01:00"); err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(out, "man", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pages {
		names = append(names, filepath.Base(p))
	}
	for _, want := range []string{"parley.1.gz", "parley-ask.1.gz", "parley-image.1.gz", "parley-models.1.gz", "parley-sessions.1.gz", "parley-sessions-list.1.gz", "parley-sessions-rm.1.gz", "parley-completion-bash.1.gz"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s among %q", want, names)
		}
	}
	for _, unwanted := range []string{"parley-gone.1.gz", "parley-config.1.gz", "parley-demo.1.gz", "parley-help.1.gz"} {
		if slices.Contains(names, unwanted) {
			t.Errorf("%s written; help topics and stale pages have none", unwanted)
		}
	}
	page := gunzip(t, filepath.Join(out, "man", "parley-sessions-list.1.gz"))
	if !strings.Contains(page, `.TH "PARLEY-SESSIONS-LIST" "1" "Nov 2026" "parley 1.2.3" "User Commands"`) || !strings.Contains(page, "\\fBparley sessions list") {
		t.Errorf("parley-sessions-list.1:\n%s", page)
	}
	root := gunzip(t, filepath.Join(out, "man", "parley.1.gz"))
	if !strings.Contains(root, "parley-sessions(1)") || strings.Contains(root, "Auto generated") {
		t.Errorf("parley.1 should point at the sessions page and carry no generation time:\n%s", root)
	}

	for shell, name := range map[string]string{"bash": "parley.bash", "zsh": "_parley", "fish": "parley.fish"} {
		got, err := os.ReadFile(filepath.Join(out, "completions", name))
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if code := cli.Main(context.Background(), []string{"completion", shell}, cli.Env{Stdout: &want, Stderr: io.Discard, Now: time.Now}); code != 0 {
			t.Fatalf("parley completion %s: exit %d", shell, code)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s differs from what parley completion %s prints", name, shell)
		}
	}
}

func TestTheSameSourceGivesTheSameBytes(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, out := range []string{a, b} {
		if err := run(out, "1.2.3", "2026-11-29T05:40:26Z"); err != nil {
			t.Fatal(err)
		}
	}
	pages, _ := filepath.Glob(filepath.Join(a, "man", "*.gz"))
	if len(pages) == 0 {
		t.Fatal("no pages written")
	}
	for _, p := range pages {
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, "man", filepath.Base(p)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs (%v)", filepath.Base(p), err)
		}
	}
}

func TestRefusesAMissingOrBadArgument(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct{ version, date, want string }{
		{"", "2026-11-29T05:40:26Z", "all three are needed"},
		{"1.2.3", "", "all three are needed"},
		{"1.2.3", "29/11/2026", "is not an RFC 3339 time"},
	} {
		if err := run(out, c.version, c.date); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("version %q, date %q: %v, want %q", c.version, c.date, err, c.want)
		}
	}
}

func gunzip(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
