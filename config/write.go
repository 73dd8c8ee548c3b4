package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// WriteServer writes a new config file that uses one server (the first-run
// screen's choice) and, when model is not empty, makes it the default
// model. It never overwrites: an existing file is left alone and the error
// wraps fs.ErrExist.
func WriteServer(path, baseURL, model string) error {
	var b bytes.Buffer
	b.WriteString("# parley configuration, written by the first-run setup.\n# See \"parley help config\" for every setting.\n\n")
	type provider struct {
		Name    string `toml:"name"`
		BaseURL string `toml:"base_url"`
	}
	err := toml.NewEncoder(&b).Encode(struct {
		DefaultModel string     `toml:"default_model,omitempty"`
		Providers    []provider `toml:"providers"`
	}{model, []provider{{"local", baseURL}}})
	if err != nil {
		return fmt.Errorf("write the config file: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create the config folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(b.Bytes())
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// NothingConfigured reports a first run: no gateway is configured anywhere.
// The only provider is the one Load makes from the environment, and
// neither OPENAI_BASE_URL nor OPENAI_API_KEY is set.
func NothingConfigured(cfg *Config, getenv func(string) string) bool {
	if len(cfg.Providers) == 0 {
		return false
	}
	for _, p := range cfg.Providers {
		if p.Line != 0 || p.Name != EnvProviderName || p.BaseURL != DefaultBaseURL || p.HasLiteralKey() || p.APIKeyCmd != "" || p.APIKeyEnv != "" {
			return false
		}
	}
	return getenv == nil || (strings.TrimSpace(getenv("OPENAI_BASE_URL")) == "" && strings.TrimSpace(getenv(DefaultKeyEnv)) == "")
}
