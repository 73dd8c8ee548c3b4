package config

import (
	"fmt"
	"net/url"
	"strings"

	"parley/api"
	"parley/termsafe"
)

// ModelList is what `parley models` shows from the config: every [[models]]
// entry, then default_model and image_model when they have no entry, each
// with its merged capabilities and provider name.
func (c *Config) ModelList() []api.Model {
	cat := c.Catalog()
	models := cat.Configured()
	for i := range models {
		if models[i].Provider == "" && len(c.Providers) > 0 {
			models[i].Provider = c.Providers[0].Name
		}
	}
	for _, name := range []string{c.DefaultModel, c.ImageModel} {
		if name == "" {
			continue
		}
		m := cat.Lookup(name)
		if m.Source == api.SourceConfig {
			continue // listed above
		}
		if p, err := c.ProviderFor(name); err == nil {
			m.Provider = p.Name
		}
		models = append(models, m)
	}
	return models
}

// Describe is the configuration as `parley models` prints it: where it came
// from, each provider (address and where its key comes from, never the key
// itself) and each model with its capabilities and their source.
//
//	config: /home/me/.config/parley/config.toml
//	provider openai: https://api.openai.com/v1 (key from OPENAI_API_KEY)
//	model gpt-4o [openai, config]: chat, vision, usage (default)
func (c *Config) Describe() string {
	// Every value is shown with termsafe.Line: a name with a newline in it
	// must not forge a line of its own.
	line := termsafe.Line
	var b strings.Builder
	switch {
	case c.overridden != "" && c.FromFile:
		fmt.Fprintf(&b, "config: %s (its providers and models are replaced by %s)\n", line(c.Path), c.overridden)
	case c.overridden != "":
		fmt.Fprintf(&b, "config: none (%s does not exist); providers and models from %s\n", line(c.Path), c.overridden)
	case c.FromFile:
		fmt.Fprintf(&b, "config: %s\n", line(c.Path))
	default:
		fmt.Fprintf(&b, "config: none (%s does not exist; using OPENAI_BASE_URL and OPENAI_API_KEY)\n", line(c.Path))
	}
	for _, p := range c.Providers {
		switch {
		case p.keyFromUnsetVariable() && p.APIKeyEnv == "":
			// No key named anywhere (the first-run setup writes such a
			// provider for a local server): none is sent, as intended.
			fmt.Fprintf(&b, "provider %s: %s (sends no key; %s gives one when set", line(p.Name), line(p.BaseURL), line(p.keyEnv()))
		case p.keyFromUnsetVariable():
			fmt.Fprintf(&b, "provider %s: %s (no key: %s is not set", line(p.Name), line(p.BaseURL), line(p.keyEnv()))
		default:
			fmt.Fprintf(&b, "provider %s: %s (key from %s", line(p.Name), line(p.BaseURL), line(p.KeySource()))
		}
		if p.Proxy != "" {
			fmt.Fprintf(&b, "; proxy %s", line(redactURL(p.Proxy)))
		}
		b.WriteString(")\n")
	}
	for _, m := range c.ModelList() {
		source := m.Source
		if c.overridden != "" && source == api.SourceConfig {
			source = c.overridden // the demo's own models, not the config file's
		}
		fmt.Fprintf(&b, "model %s [%s, %s]: %s", line(m.Name), line(m.Provider), source, m.Caps.Summary())
		switch m.Name {
		case c.DefaultModel:
			b.WriteString(" (default)")
		case c.ImageModel:
			b.WriteString(" (image default)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// redactURL hides a password in a URL's user info.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
