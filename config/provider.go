package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"sync"
	"time"

	"parley/api"
	"parley/internal/procgroup"
)

// KeyCmdTimeout bounds api_key_cmd.
const KeyCmdTimeout = 10 * time.Second

// maxKeyCmdOutput bounds what is read from api_key_cmd.
const maxKeyCmdOutput = 64 << 10

// Provider is one [[providers]] entry: a gateway and where its key comes
// from. Its key is resolved on first use and then kept.
type Provider struct {
	Name      string            // name: how [[models]] entries refer to it (required)
	BaseURL   string            // base_url (required): kept verbatim; the client accepts it with or without /v1
	APIKeyEnv string            // api_key_env: variable holding the key; "" = OPENAI_API_KEY
	APIKeyCmd string            // api_key_cmd: command printing the key, run with sh -c (10 s limit)
	Proxy     string            // proxy: proxy URL for this provider; "" = HTTPS_PROXY/HTTP_PROXY/NO_PROXY
	Headers   map[string]string // headers: extra request headers, e.g. { "X-Title" = "parley" }
	Line      int               // line of the [[providers]] header (0 when not from a file)

	apiKey  string // api_key: the key itself (discouraged; see Config.Warnings)
	keyLine int
	cfg     *Config

	keyCmdTimeout time.Duration // tests shorten it; 0 = KeyCmdTimeout

	keyLabel string // where the key comes from when an Override set it

	mu  sync.Mutex
	key *string // the resolved key, once resolution succeeded
}

func (c *Config) newProvider(name, baseURL string, line int) *Provider {
	return &Provider{Name: name, BaseURL: baseURL, Line: line, cfg: c}
}

// configPath and getenv let a Provider built by hand (without Load) work.
func (p *Provider) configPath() string {
	if p.cfg == nil {
		return "the config file"
	}
	return p.cfg.Path
}

func (p *Provider) getenv(k string) string {
	if p.cfg == nil {
		return ""
	}
	return p.cfg.env.get(k)
}

// HasLiteralKey reports whether the config file holds the key itself.
func (p *Provider) HasLiteralKey() bool { return p.apiKey != "" }

// KeySource says where the key comes from, for messages and `parley
// models`; it never contains the key.
func (p *Provider) KeySource() string {
	switch {
	case p.keyLabel != "":
		return p.keyLabel
	case p.apiKey != "":
		return fmt.Sprintf("api_key of provider %s in %s", p.Name, p.configPath())
	case p.APIKeyCmd != "":
		return fmt.Sprintf("api_key_cmd of provider %s", p.Name)
	}
	return p.keyEnv()
}

// keyFromUnsetVariable reports a provider whose key would come from an
// environment variable that is not set (so it has none).
func (p *Provider) keyFromUnsetVariable() bool {
	return p.keyLabel == "" && p.apiKey == "" && p.APIKeyCmd == "" && strings.TrimSpace(p.getenv(p.keyEnv())) == ""
}

func (p *Provider) keyEnv() string {
	if p.APIKeyEnv != "" {
		return p.APIKeyEnv
	}
	return DefaultKeyEnv
}

// KeyError is a key that could not be resolved: api_key_cmd failed, timed
// out, printed nothing or left a process behind, or the variable the config
// names is unset, or the key holds characters no header can carry. Every
// such failure has this one type, so callers give all of them the same exit
// status. It never contains the key or the command's output.
type KeyError struct {
	Provider string
	Msg      string // what went wrong and what to do
}

func (e *KeyError) Error() string { return fmt.Sprintf("provider %q: %s", e.Provider, e.Msg) }

func (p *Provider) keyErr(format string, args ...any) *KeyError {
	return &KeyError{Provider: p.Name, Msg: fmt.Sprintf(format, args...)}
}

// APIKey resolves the key: api_key, else the first line printed by
// api_key_cmd, else the variable api_key_env (default OPENAI_API_KEY). An
// unset default variable gives "" (local gateways need no key); an unset
// variable the config names explicitly is an error. Every error is a
// *KeyError. A successful result is kept; a failure is retried on the next
// call.
func (p *Provider) APIKey() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.key != nil {
		return *p.key, nil
	}
	var key string
	switch {
	case p.apiKey != "":
		key = p.apiKey
	case p.APIKeyCmd != "":
		k, err := p.runKeyCmd()
		if err != nil {
			return "", err
		}
		key = k
	default:
		key = strings.TrimSpace(p.getenv(p.keyEnv()))
		if key == "" && p.APIKeyEnv != "" {
			return "", p.keyErr("the environment variable %s (its api_key_env) is not set; export it, or change api_key_env in %s",
				p.APIKeyEnv, p.configPath())
		}
	}
	if i := strings.IndexFunc(key, func(r rune) bool { return r < ' ' || r == 0x7f }); i >= 0 {
		return "", p.keyErr("the key from %s contains a control character (a line break or an escape?), which no request header can carry; check what it holds", p.KeySource())
	}
	p.key = &key
	return key, nil
}

// KnownKeys returns the keys the config gives without running anything
// (api_key values, the variables api_key_env names or OPENAI_API_KEY) and
// those resolved so far, so they can be masked and kept out of the
// history. A key api_key_cmd prints is known once it was resolved.
func (c *Config) KnownKeys() []string {
	var keys []string
	for _, p := range c.Providers {
		p.mu.Lock()
		switch {
		case p.key != nil:
			keys = append(keys, *p.key)
		case p.apiKey != "":
			keys = append(keys, p.apiKey)
		case p.APIKeyCmd == "":
			keys = append(keys, strings.TrimSpace(p.getenv(p.keyEnv())))
		}
		p.mu.Unlock()
	}
	return keys
}

// runKeyCmd runs api_key_cmd. Its output is never put into an error: a
// command that fails halfway may have printed the key or part of it.
func (p *Provider) runKeyCmd() (string, error) {
	timeout := p.keyCmdTimeout
	if timeout <= 0 {
		timeout = KeyCmdTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", p.APIKeyCmd)
	out := &capWriter{max: maxKeyCmdOutput}
	cmd.Stdout = out
	cmd.Stderr = nil // discarded: it would land in the middle of the TUI
	cmd.WaitDelay = time.Second
	procgroup.Set(cmd) // a timeout kills the pipeline sh -c started too
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", p.keyErr("api_key_cmd did not finish within %v; run it yourself to check that it prints the key and exits", timeout)
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited, but a process it started in the background
		// still holds its output open. That process is stopped, and the
		// command refused: its output may not be complete.
		procgroup.Kill(cmd)
		return "", p.keyErr("api_key_cmd exited but left a background process running that keeps its output open, so parley stopped that process; make the command exit without leaving processes behind (send a background process's output elsewhere, e.g. >/dev/null)")
	case errors.As(err, &exitErr):
		return "", p.keyErr("api_key_cmd failed (%v); run it yourself to see why", exitErr.ProcessState)
	case err != nil:
		return "", p.keyErr("api_key_cmd could not be run (%v); check that sh is installed", err)
	}
	key := firstLine(out.Bytes())
	if key == "" {
		return "", p.keyErr("api_key_cmd printed nothing; it must print the key on its first line")
	}
	return key, nil
}

// firstLine is the first non-blank line, trimmed: password managers such
// as pass print the secret on the first line and notes after it.
func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// capWriter keeps at most max bytes and drops the rest.
type capWriter struct {
	buf bytes.Buffer
	max int
}

func (w *capWriter) Write(b []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(b[:min(len(b), room)])
	}
	return len(b), nil
}

func (w *capWriter) Bytes() []byte { return w.buf.Bytes() }

// ClientConfig is everything api.NewClient needs for this provider: the
// base URL, the resolved key, headers, proxy, timeouts and retries.
func (p *Provider) ClientConfig(userAgent string) (api.ClientConfig, error) {
	key, err := p.APIKey()
	if err != nil {
		return api.ClientConfig{}, err
	}
	cc := api.ClientConfig{
		BaseURL:   p.BaseURL,
		APIKey:    key,
		Headers:   maps.Clone(p.Headers),
		Proxy:     p.Proxy,
		UserAgent: userAgent,
		KeySource: p.KeySource(),
	}
	if p.cfg != nil {
		cc.Timeouts, cc.Retry = p.cfg.Timeouts(), p.cfg.Retry()
		cc.MaxReplyBytes = p.cfg.MaxReplyBytes
	}
	return cc, nil
}
