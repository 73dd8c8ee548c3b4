package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	gw.Enqueue(apitest.Reply{Status: 503, Body: "<html><head><title>503 Service Unavailable</title></head><body>nginx</body></html>"},
		apitest.Reply{Status: 503, Body: "<html><head><title>503 Service Unavailable</title></head></html>"},
		apitest.Reply{Status: 503, Body: "<html><head><title>503 Service Unavailable</title></head></html>"})
	out, code = sh(`PARLEY_CONFIG= "$PARLEY" ask -m gpt-4o hi`)
	if code != 1 || strings.Contains(out, "<html") || !strings.Contains(out, "503") {
		t.Fatalf("gateway failure: exit %d, %q", code, out)
	}
	if out, code := sh(`"$PARLEY" --version`); code != 0 || out != "parley "+Version+"\n" {
		t.Fatalf("--version: %d %q", code, out)
	}
}
