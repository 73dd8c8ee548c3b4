package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// providerFrom loads a config holding one [[providers]] entry with extra lines.
func providerFrom(t *testing.T, vars map[string]string, lines string) *Provider {
	t.Helper()
	env, _ := testEnv(t, vars)
	writeConfig(t, env, "[[providers]]\nname = \"gw\"\nbase_url = \"https://gw.example/v1\"\n"+lines, 0o600)
	return mustLoad(t, env).Providers[0]
}

func TestConfigKeyResolutionOrder(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	cmd := `echo x >> ` + ran + `; printf 'sk-from-cmd\nsecond line: notes\n'`
	vars := map[string]string{"OPENAI_API_KEY": "sk-default-env", "MY_KEY": "sk-my-env"}

	// api_key beats api_key_cmd (which must not even run) and the environment.
	p := providerFrom(t, vars, "api_key = \"sk-literal\"\napi_key_cmd = \""+strings.ReplaceAll(cmd, `"`, `\"`)+"\"\napi_key_env = \"MY_KEY\"\n")
	if k, err := p.APIKey(); k != "sk-literal" || err != nil {
		t.Errorf("literal: %q %v", k, err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("api_key_cmd ran although api_key is set")
	}

	// api_key_cmd beats the environment, runs only when the key is needed, once.
	p = providerFrom(t, vars, "api_key_cmd = \""+strings.ReplaceAll(cmd, `"`, `\"`)+"\"\napi_key_env = \"MY_KEY\"\n")
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("api_key_cmd ran during Load; it must run lazily")
	}
	for range 3 {
		cc, err := p.ClientConfig("ua")
		if err != nil || cc.APIKey != "sk-from-cmd" || cc.KeySource != "api_key_cmd of provider gw" {
			t.Fatalf("cmd: %q %q %v", cc.APIKey, cc.KeySource, err)
		}
	}
	if b, _ := os.ReadFile(ran); strings.Count(string(b), "x") != 1 {
		t.Errorf("api_key_cmd ran %d times, want once", strings.Count(string(b), "x"))
	}

	// api_key_env names the variable; without it OPENAI_API_KEY is used.
	if k, _ := providerFrom(t, vars, "api_key_env = \"MY_KEY\"\n").APIKey(); k != "sk-my-env" {
		t.Errorf("api_key_env: %q", k)
	}
	if k, _ := providerFrom(t, vars, "").APIKey(); k != "sk-default-env" {
		t.Errorf("default env: %q", k)
	}
	// An explicitly named but unset variable is an error naming it.
	_, err := providerFrom(t, nil, "api_key_env = \"OPENROUTER_API_KEY\"\n").ClientConfig("ua")
	if err == nil || !strings.Contains(err.Error(), `provider "gw"`) || !strings.Contains(err.Error(), "OPENROUTER_API_KEY") {
		t.Errorf("unset api_key_env: %v", err)
	}
}

func TestConfigKeyCmdFailures(t *testing.T) {
	cases := []struct {
		name, cmd string
		want      []string
	}{
		{"exit status", `echo sk-leaked-secret; echo oops >&2; exit 3`, []string{`provider "gw"`, "api_key_cmd failed (exit status 3)", "run it yourself"}},
		{"prints nothing", `true`, []string{`provider "gw"`, "printed nothing"}},
		{"blank lines", `printf "\n  \n"`, []string{"printed nothing"}},
		{"not found", `/nonexistent/pass-helper show key`, []string{"api_key_cmd failed (exit status 127)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := providerFrom(t, map[string]string{"OPENAI_API_KEY": "sk-env"}, "api_key_cmd = '"+c.cmd+"'\n")
			_, err := p.ClientConfig("ua")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "sk-leaked-secret") || strings.Contains(err.Error(), "oops") || strings.Contains(err.Error(), c.cmd) {
				t.Errorf("error shows the command or its output: %q", err)
			}
		})
	}
	// A failure is not remembered: once the command works, the key comes through.
	dir := t.TempDir()
	flag := filepath.Join(dir, "unlocked")
	p := providerFrom(t, nil, "api_key_cmd = 'test -e "+flag+" && echo sk-now'\n")
	if _, err := p.APIKey(); err == nil {
		t.Fatal("locked: no error")
	}
	os.WriteFile(flag, nil, 0o600)
	if k, err := p.APIKey(); k != "sk-now" || err != nil {
		t.Errorf("after unlocking: %q %v", k, err)
	}
}

func TestConfigKeyCmdTimeout(t *testing.T) {
	for _, cmd := range []string{"sleep 20", "sleep 20 | cat", "(sleep 20 &) ; sleep 20"} {
		p := providerFrom(t, nil, "api_key_cmd = '"+cmd+"'\n")
		p.keyCmdTimeout = 200 * time.Millisecond
		start := time.Now()
		_, err := p.APIKey()
		took := time.Since(start)
		if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") {
			t.Errorf("%s: %v", cmd, err)
		}
		if took > 3*time.Second {
			t.Errorf("%s: took %v; the command must be killed at the timeout", cmd, took)
		}
	}
	if KeyCmdTimeout != 10*time.Second {
		t.Errorf("KeyCmdTimeout = %v, want 10s", KeyCmdTimeout)
	}
}
