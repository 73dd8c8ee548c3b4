package cli

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// result is what one parley invocation produced.
type result struct {
	stdout, stderr string
	code           int
}

// harness runs parley in-process against a fake gateway with a hermetic
// environment (home, XDG dirs and config in temp dirs).
type harness struct {
	t    *testing.T
	gw   *apitest.Server
	home string
	env  map[string]string
	now  time.Time
	// stdoutTTY and stderrTTY pretend stdout or stderr is a terminal; tui
	// records the chat request.
	stdoutTTY, stderrTTY bool
	tui                  *TUIRequest
	// prepare, when set, is the Env's PrepareTUI.
	prepare func()
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{
		t:    t,
		gw:   apitest.New(t),
		home: t.TempDir(),
		now:  time.Date(2026, 11, 21, 14, 30, 5, 0, time.UTC),
	}
	h.env = map[string]string{
		"OPENAI_BASE_URL":  h.gw.URL(),
		"OPENAI_API_KEY":   apitest.DefaultAPIKey,
		"XDG_CONFIG_HOME":  filepath.Join(h.home, ".config"),
		"XDG_DATA_HOME":    filepath.Join(h.home, ".local", "share"),
		"XDG_PICTURES_DIR": filepath.Join(h.home, "Pictures"),
	}
	return h
}

// writeConfig writes the config file parley reads by default.
func (h *harness) writeConfig(body string) string {
	h.t.Helper()
	path := filepath.Join(h.env["XDG_CONFIG_HOME"], "parley", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return path
}

// run invokes parley with args; stdin is piped unless it is nil.
func (h *harness) run(stdin *string, args ...string) result {
	h.t.Helper()
	var out, errb bytes.Buffer
	env := Env{
		Stdout:           &out,
		Stderr:           &errb,
		StdinIsTerminal:  stdin == nil,
		StdoutIsTerminal: h.stdoutTTY,
		StderrIsTerminal: h.stderrTTY,
		RunTUI: func(_ context.Context, req TUIRequest) error {
			h.tui = &req
			return nil
		},
		Getenv:     func(k string) string { return h.env[k] },
		HomeDir:    h.home,
		Now:        func() time.Time { return h.now },
		PrepareTUI: h.prepare,
	}
	if stdin != nil {
		env.Stdin = strings.NewReader(*stdin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code := Main(ctx, args, env)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

func (r result) mustCode(t *testing.T, want int) {
	t.Helper()
	if r.code != want {
		t.Fatalf("exit status %d, want %d\nstdout: %q\nstderr: %q", r.code, want, r.stdout, r.stderr)
	}
}

func ptr(s string) *string { return &s }

// writePNG writes a real w×h PNG and returns its path.
func writePNG(t *testing.T, dir, name string, w, h int, alpha bool) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if alpha && x < w/2 {
				a = 0
			}
			img.Set(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 90, a})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o644) }
