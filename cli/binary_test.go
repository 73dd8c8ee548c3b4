package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parley/api/apitest"
)

// buildParley compiles the real binary once per test that needs it.
func buildParley(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "parley")
	cmd := exec.Command("go", "build", "-o", bin, "parley")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinaryInAShell runs the built parley the way a new user's shell would:
// stdin piped in, stdout redirected to a file, exit statuses checked.
func TestBinaryInAShell(t *testing.T) {
	bin := buildParley(t)
	gw := apitest.New(t)
	home := t.TempDir()
	work := t.TempDir()
	env := append(os.Environ(),
		"PARLEY="+bin,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_PICTURES_DIR="+filepath.Join(home, "Pictures"),
		"OPENAI_BASE_URL="+gw.URL(),
		"OPENAI_API_KEY="+apitest.DefaultAPIKey,
		"NO_PROXY=*",
	)
	sh := func(script string) (string, int) {
		t.Helper()
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = env
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}

	gw.Enqueue(apitest.Reply{Text: "Lima.", DeltaRunes: 2})
	if out, code := sh(`printf 'Peru?\n' | "$PARLEY" ask -m gpt-4o "What is the capital?" > reply.txt`); code != 0 {
		t.Fatalf("ask exited %d: %s", code, out)
	}
	got, err := os.ReadFile(filepath.Join(work, "reply.txt"))
	if err != nil || string(got) != "Lima.\n" {
		t.Fatalf("reply.txt = %q, %v", got, err)
	}
	req, _ := gw.LastRequest()
	if text := req.Chat.Messages[0].Content.PlainText(); text != "Peru?\n\nWhat is the capital?" {
		t.Fatalf("sent %q", text)
	}

	out, code := sh(`"$PARLEY" image -m gpt-image-1 --size 1024x1024 "a tiny lighthouse" > paths.txt`)
	if code != 0 {
		t.Fatalf("image exited %d: %s", code, out)
	}
	paths, _ := os.ReadFile(filepath.Join(work, "paths.txt"))
	path := strings.TrimSpace(string(paths))
	if !strings.HasSuffix(path, "-a-tiny-lighthouse-1.png") || strings.Count(string(paths), "\n") != 1 {
		t.Fatalf("paths.txt = %q", paths)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("saved image: %v", err)
	}

	if out, code := sh(`"$PARLEY" ask -m gpt-4o < /dev/null`); code != 2 || !strings.HasPrefix(out, "parley: ") {
		t.Fatalf("empty ask: exit %d, %q", code, out)
	}
	// Three 503 pages from a proxy; each asks for a 5ms wait, which parley
	// honours instead of its backoff, so the retries cost no time here.
	page := apitest.Reply{Status: 503, Header: map[string]string{"retry-after-ms": "5", "Content-Type": "text/html"},
		Body: "<html><head><title>503 Service Unavailable</title></head><body>nginx</body></html>"}
	gw.Enqueue(page, page, page)
	out, code = sh(`PARLEY_CONFIG= "$PARLEY" ask -m gpt-4o hi`)
	if code != 1 || strings.Contains(out, "<html") || !strings.Contains(out, "503 Service Unavailable") || !strings.Contains(out, "after 3 attempts") {
		t.Fatalf("gateway failure: exit %d, %q", code, out)
	}
	if out, code := sh(`"$PARLEY" --version`); code != 0 || !strings.HasPrefix(out, "parley ") {
		t.Fatalf("--version: %d %q", code, out)
	}

	// HTTP_PROXY from the environment carries the request to a gateway
	// whose name only the proxy knows (no DNS involved).
	proxy, seen := gatewayProxy(t, gw)
	out, code = sh(`HTTP_PROXY=` + proxy + ` http_proxy=` + proxy + ` NO_PROXY= no_proxy= OPENAI_BASE_URL=http://gateway.invalid/v1 "$PARLEY" ask -m gpt-4o "via the proxy" 2>err.txt`)
	errText, _ := os.ReadFile(filepath.Join(work, "err.txt"))
	if code != 0 || out != "You said: via the proxy\n" || !strings.Contains(string(errText), "plain http to gateway.invalid") {
		t.Fatalf("through HTTP_PROXY: exit %d, stdout %q, stderr %q", code, out, errText)
	}
	if got := seen(); len(got) != 1 || got[0] != "POST http://gateway.invalid/v1/chat/completions" {
		t.Fatalf("the proxy saw %q", got)
	}

	// Ctrl-C during a slow stream: the text so far stays on stdout, ended
	// with a newline; the exit status is 130 and stderr says why.
	gw.Enqueue(apitest.Reply{Text: "one two three four five six seven eight", DeltaRunes: 4, Interval: 150 * time.Millisecond})
	cmd := exec.Command(bin, "ask", "-m", "gpt-4o", "count slowly")
	cmd.Env = env
	cmd.Dir = work
	var stderr bytes.Buffer
	stdout := &syncWriter{w: &bytes.Buffer{}}
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "two") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no output after 10s: %q", stdout.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	partial := stdout.String()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("after Ctrl-C: %v, stderr %q", err, stderr.String())
	}
	if !strings.HasPrefix(partial, "one two") || !strings.HasSuffix(partial, "\n") || strings.Contains(partial, "eight") || strings.Count(partial, "\n") != 1 {
		t.Fatalf("stdout after Ctrl-C = %q", partial)
	}
	if stderr.String() != "parley: Interrupted.\n" {
		t.Fatalf("stderr after Ctrl-C = %q", stderr.String())
	}
}

// syncWriter lets the test read what the process wrote so far.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}
