package cli

import (
	"os"
	"strings"
	"testing"
)

// An error that starts with a command keeps it as it is typed:
// "parley: parley sessions export takes one session id …", not "Parley".
func TestErrorStartingWithACommandKeepsItsCase(t *testing.T) {
	h := newHarness(t)
	r := h.run(nil, "sessions", "export")
	r.mustCode(t, 2)
	if !strings.Contains(r.stderr, "parley: parley sessions export takes one session id") {
		t.Fatalf("stderr: %q", r.stderr)
	}
	if got := sentence("the gateway answered 500"); got != "The gateway answered 500." {
		t.Fatalf("an ordinary sentence: %q", got)
	}
}

// A message that starts with a path keeps the path's case: on a
// case-sensitive disk "Adir" names another file than "adir". It is a path
// when a colon follows it, or when a file or folder of that name exists.
func TestMessageStartingWithAPathKeepsItsCase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("notes", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("badcfg", []byte("x = ["), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "adir", "ask", "hi"}, "parley: adir: this is a directory"},
		{[]string{"--config", "nofile", "ask", "hi"}, "parley: nofile: this file, given with --config, does not exist"},
		{[]string{"--config", "badcfg", "ask", "hi"}, "parley: badcfg:1:5: invalid TOML"},
	} {
		r := h.run(nil, c.args...)
		r.mustCode(t, 2)
		if !strings.HasPrefix(r.stderr, c.want) {
			t.Errorf("parley %s:\n%q\nwant it to start with %q", strings.Join(c.args, " "), r.stderr, c.want)
		}
	}
	for in, want := range map[string]string{
		"notes exists already and was left alone": "notes exists already and was left alone.",
		"adir is a folder; give a file":           "adir is a folder; give a file.",
		"nothing here is a path":                  "Nothing here is a path.",
	} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}
