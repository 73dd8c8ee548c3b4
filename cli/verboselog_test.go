package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// runChat runs the bare parley command (the chat) with args; chat stands
// in for the full-screen chat and gets the request the command line built.
func (h *harness) runChat(chat func(TUIRequest) error, args ...string) result {
	h.t.Helper()
	var out, errb bytes.Buffer
	env := Env{
		Stdout: &out, Stderr: &errb,
		StdinIsTerminal: true, StdoutIsTerminal: true,
		RunTUI:     func(_ context.Context, req TUIRequest) error { return chat(req) },
		Getenv:     func(k string) string { return h.env[k] },
		HomeDir:    h.home,
		Now:        func() time.Time { return h.now },
		PrepareTUI: h.prepare,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code := Main(ctx, args, env)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// -v in the chat: the trace of every client the chat builds goes to
// $XDG_STATE_HOME/parley/verbose.log (only the user can read it), stderr
// says so before the chat starts, and the chat is told the path.
func TestChatVerboseWritesTheTraceToALogFile(t *testing.T) {
	h := newHarness(t)
	h.env["XDG_STATE_HOME"] = filepath.Join(h.home, "state")
	want := filepath.Join(h.home, "state", "parley", "verbose.log")
	var got TUIRequest
	r := h.runChat(func(req TUIRequest) error {
		got = req
		c, err := req.NewClient("gpt-4o")
		if err != nil {
			return err
		}
		_, err = c.ListModels(context.Background())
		return err
	}, "-v")
	r.mustCode(t, ExitOK)
	if got.VerboseLog != want {
		t.Errorf("the chat was told the trace goes to %q, want %q", got.VerboseLog, want)
	}
	if !strings.Contains(r.stderr, "parley: Tracing gateway requests (--verbose) to ~/state/parley/verbose.log.\n") {
		t.Errorf("stderr does not say where the trace goes: %q", r.stderr)
	}
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	trace := string(b)
	if !strings.Contains(trace, "> GET "+h.gw.URL()+"/models") || !strings.Contains(trace, "< HTTP/1.1 200") {
		t.Errorf("the log has no trace of the request and its response:\n%s", trace)
	}
	if strings.Contains(trace, apitest.DefaultAPIKey) {
		t.Errorf("the log shows the API key:\n%s", trace)
	}
	if fi, err := os.Stat(want); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(filepath.Dir(want)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the log folder's mode is %v (%v), want 0700", fi.Mode().Perm(), err)
	}
}

// Without XDG_STATE_HOME the log goes to ~/.local/state, a relative
// XDG_STATE_HOME is ignored (XDG), and each chat replaces the last trace.
func TestChatVerboseLogDefaultsToHomeAndStartsEmpty(t *testing.T) {
	h := newHarness(t)
	h.env["XDG_STATE_HOME"] = "relative/state"
	want := filepath.Join(h.home, ".local", "state", "parley", "verbose.log")
	if err := os.MkdirAll(filepath.Dir(want), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(want, []byte("the previous chat's trace\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got TUIRequest
	h.runChat(func(req TUIRequest) error { got = req; return nil }, "--verbose").mustCode(t, ExitOK)
	if got.VerboseLog != want {
		t.Errorf("trace path %q, want %q", got.VerboseLog, want)
	}
	if b, err := os.ReadFile(want); err != nil || len(b) != 0 {
		t.Errorf("the log holds %q (%v), want it emptied for the new chat", b, err)
	}
}

// Without -v the chat traces nothing and no file is created.
func TestChatWithoutVerboseHasNoLog(t *testing.T) {
	h := newHarness(t)
	h.env["XDG_STATE_HOME"] = filepath.Join(h.home, "state")
	var got TUIRequest
	r := h.runChat(func(req TUIRequest) error { got = req; return nil })
	r.mustCode(t, ExitOK)
	if got.VerboseLog != "" || strings.Contains(r.stderr, "Tracing") {
		t.Errorf("trace without -v: path %q, stderr %q", got.VerboseLog, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(h.home, "state", "parley")); !os.IsNotExist(err) {
		t.Errorf("a state folder was created without -v (%v)", err)
	}
}

// A log that cannot be written stops the chat with a sentence: -v is never
// silently ignored.
func TestChatVerboseUnwritableLogFails(t *testing.T) {
	h := newHarness(t)
	blocker := filepath.Join(h.home, "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	h.env["XDG_STATE_HOME"] = blocker
	started := false
	r := h.runChat(func(TUIRequest) error { started = true; return nil }, "-v")
	r.mustCode(t, ExitFailure)
	if started {
		t.Error("the chat started although its trace cannot be written")
	}
	if !strings.Contains(r.stderr, "Could not create the folder for the verbose log") || !strings.Contains(r.stderr, "run without --verbose") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// The log stops at its cap with one note, and writes after Close are
// dropped rather than failing the request being traced.
func TestVerboseLogCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verbose.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	l := &verboseLog{path: path, f: f, left: 10}
	for _, line := range []string{"12345\n", "67890\n", "more\n"} {
		if n, err := l.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", line, n, err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := l.Write([]byte("late\n")); n != 5 || err != nil {
		t.Fatalf("Write after Close = %d, %v", n, err)
	}
	b, _ := os.ReadFile(path)
	want := "12345\nparley: the trace stops here: the log reached its limit of 16.8 MB\n"
	if string(b) != want {
		t.Errorf("log = %q, want %q", b, want)
	}
}
