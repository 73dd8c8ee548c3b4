package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigRefusesSpecialFiles: a config path that is a device (through a
// symlink), a named pipe or a directory is refused at once with a sentence
// saying what it is; a file over the size cap is refused without reading
// it all.
func TestConfigRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.toml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		via  string
		want []string
	}{
		{zero, "flag", []string{zero + ": this is a character device, not a regular file", "give --config a TOML config file"}},
		{fifo, "env", []string{"a named pipe (FIFO)", "point PARLEY_CONFIG at a TOML config file"}},
		{dir, "flag", []string{"a directory"}},
		{big, "flag", []string{"larger than 1.0 MB", "far more than any config needs"}},
	} {
		env, _ := testEnv(t, nil)
		if tc.via == "flag" {
			env.Path = tc.path
		} else {
			env, _ = testEnv(t, map[string]string{"PARLEY_CONFIG": tc.path})
		}
		start := time.Now()
		_, err := Load(env)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%s: err %T %v", tc.path, err, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tc.path, err, w)
			}
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: refused after %v", tc.path, took)
		}
	}
}

// TestConfigDeepNesting: nesting beyond the limit is refused before the
// decoder runs, at the line and column where it goes too deep; a 16 KB
// bomb that took the decoder 726 MB is refused at once.
func TestConfigDeepNesting(t *testing.T) {
	env, _ := testEnv(t, nil)
	path := writeConfig(t, env, "default_model = \"x\"\n\n[[providers]]\nname = \"a\"\nbase_url = \"http://localhost\"\nheaders = "+
		strings.Repeat("{a=", 5400)+"\"b\""+strings.Repeat("}", 5400)+"\n", 0o600)
	start := time.Now()
	_, err := Load(env)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 6 || pe.Col != 11+3*8 {
		t.Fatalf("err %v", err)
	}
	if !strings.HasPrefix(err.Error(), path+":6:35: arrays and inline tables are nested more than 8 levels deep") {
		t.Fatalf("message %q", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("refused after %v", took)
	}
	// Real nesting passes.
	writeConfig(t, env, "[[providers]]\nname = \"a\"\nbase_url = \"http://localhost\"\nheaders = { \"X-A\" = \"b\" }\n[[models]]\nname = \"m\"\nsizes = [\"1024x1024\"]\n", 0o600)
	mustLoad(t, env)
}

// TestConfigPathVariables: an unset or empty variable in image_dir is an
// error naming it, at the line of the setting, instead of a path at the
// root of the file system.
func TestConfigPathVariables(t *testing.T) {
	for _, tc := range []struct {
		value string
		vars  map[string]string
		home  bool
		want  string // "" = accepted
		dir   string
	}{
		{"$UNSET/x", nil, true, "uses $UNSET, which is not set or is empty", ""},
		{"${EMPTY}/pics", map[string]string{"EMPTY": ""}, true, "uses $EMPTY, which is not set or is empty", ""},
		{"$A/$B/$A", nil, true, "uses $A, $B, which are not set or are empty", ""},
		{"~/pics", nil, false, "starts with ~ but the home directory is not known", ""},
		{"$PICS/parley", map[string]string{"PICS": "/data/pics"}, true, "", "/data/pics/parley"},
		{"$HOME/pics", nil, true, "", "HOME/pics"},
		{"cost$/x", nil, true, "", "cost$/x"},
	} {
		env, home := testEnv(t, tc.vars)
		path := writeConfig(t, env, "# images\nimage_dir = \""+tc.value+"\"\n", 0o600)
		if !tc.home {
			env.HomeDir = ""
			env.Path = path
		}
		c, err := Load(env)
		if tc.want == "" {
			want := strings.Replace(tc.dir, "HOME", home, 1)
			if err != nil || c.ImageDir() != want {
				t.Errorf("%s: ImageDir %v, err %v; want %s", tc.value, c, err, want)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), path+":2:1: image_dir = \""+tc.value+"\": it ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.value, err, tc.want)
		}
	}
}

// TestMaxReplyBytes: max_reply_bytes reaches every provider's client
// config; unset leaves the client's default; a size too small or not a
// size is refused at its line.
func TestMaxReplyBytes(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"OPENAI_API_KEY": "sk-test"})
	writeConfig(t, env, "max_reply_bytes = \"2MiB\"\n", 0o600)
	cc, err := mustLoad(t, env).Providers[0].ClientConfig("parley/test")
	if err != nil || cc.MaxReplyBytes != 2<<20 {
		t.Fatalf("MaxReplyBytes %d, err %v", cc.MaxReplyBytes, err)
	}
	writeConfig(t, env, "theme = \"dark\"\n", 0o600)
	if cc, _ := mustLoad(t, env).Providers[0].ClientConfig("parley/test"); cc.MaxReplyBytes != 0 {
		t.Fatalf("unset: MaxReplyBytes %d, want 0 (the client's default)", cc.MaxReplyBytes)
	}
	for body, want := range map[string]string{
		"max_reply_bytes = 10\n":       "use at least 1KB",
		"max_reply_bytes = \"huge\"\n": "is not a size",
	} {
		writeConfig(t, env, body, 0o600)
		if _, err := Load(env); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), ":1:") {
			t.Errorf("%q: err %v, want %q at line 1", body, err, want)
		}
	}
}

// TestKnownKeys: every key the config gives without running a command is
// known (a literal api_key, api_key_env, OPENAI_API_KEY by default); a key
// from api_key_cmd only once resolved.
func TestKnownKeys(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"OPENAI_API_KEY": "sk-env-default", "TEAM_KEY": "sk-team"})
	writeConfig(t, env, `[[providers]]
name = "a"
base_url = "http://127.0.0.1:1/v1"
[[providers]]
name = "b"
base_url = "http://127.0.0.1:2/v1"
api_key_env = "TEAM_KEY"
[[providers]]
name = "c"
base_url = "http://127.0.0.1:3/v1"
api_key = "sk-literal"
[[providers]]
name = "d"
base_url = "http://127.0.0.1:4/v1"
api_key_cmd = "echo sk-from-cmd"
`, 0o600)
	c := mustLoad(t, env)
	if got := strings.Join(c.KnownKeys(), " "); got != "sk-env-default sk-team sk-literal" {
		t.Fatalf("before api_key_cmd ran: %q", got)
	}
	if _, err := c.Provider("d").APIKey(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.KnownKeys(), " "); got != "sk-env-default sk-team sk-literal sk-from-cmd" {
		t.Fatalf("after: %q", got)
	}
}
