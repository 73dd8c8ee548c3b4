package cli

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"parley/config"
)

// startupWarnings are the problems worth saying before anything is sent:
// the config file's own (unknown keys, a key other users can read), a
// provider whose key is missing, and OPENAI_BASE_URL set while the file's
// providers make parley ignore it. ask, image and models print them on
// stderr; the chat shows them in its banner (TUIRequest.Warnings). With
// --demo the user's gateways are not used, so only the file's own remain.
func (a *app) startupWarnings(cfg *config.Config) []string {
	ws := append([]string(nil), cfg.Warnings...)
	if cfg.Overridden() != "" {
		return ws
	}
	envBase := strings.TrimSpace(a.env.Getenv("OPENAI_BASE_URL"))
	if envBase != "" && fileProviders(cfg) {
		p := cfg.Providers[0]
		ws = append(ws, fmt.Sprintf("OPENAI_BASE_URL (%s) is ignored because %s defines [[providers]]; parley uses provider %q at %s. Unset OPENAI_BASE_URL, or add that gateway to the file as a provider",
			showURL(envBase), a.displayPath(cfg.Path), p.Name, showURL(p.BaseURL)))
	}
	configured := envBase != "" || fileProviders(cfg)
	for _, p := range cfg.Providers {
		if w := a.missingKey(cfg, p, configured); w != "" {
			ws = append(ws, w)
		}
	}
	return ws
}

// fileProviders reports whether the providers come from the config file.
func fileProviders(cfg *config.Config) bool {
	for _, p := range cfg.Providers {
		if p.Line > 0 {
			return true
		}
	}
	return false
}

// missingKey says when a provider's key comes from an environment
// variable that is not set. A key in the file or from api_key_cmd is not
// checked here (the command may take seconds; its failure is reported
// when the provider is used). Without api_key_env, OPENAI_API_KEY may be
// unset for local gateways, which need no key; it is said only for a
// remote one, and only when a gateway is configured at all (with nothing
// configured, the chat's setup screen explains it).
func (a *app) missingKey(cfg *config.Config, p *config.Provider, configured bool) string {
	if p.HasLiteralKey() || p.APIKeyCmd != "" {
		return ""
	}
	name := p.APIKeyEnv
	if name == "" {
		name = config.DefaultKeyEnv
	}
	if strings.TrimSpace(a.env.Getenv(name)) != "" {
		return ""
	}
	if p.APIKeyEnv != "" {
		if !a.console.collecting {
			// ask and image fail on this provider with the same sentence
			// (config.KeyError), and models shows "no key" beside it:
			// said first as a warning, it would be said twice.
			return ""
		}
		return fmt.Sprintf("provider %q has no key: %s (its api_key_env) is not set, so its requests will fail; export %s, or change api_key_env in %s",
			p.Name, name, name, a.displayPath(cfg.Path))
	}
	if !configured || localGateway(p.BaseURL) {
		return ""
	}
	where := "export OPENAI_API_KEY"
	if p.Line > 0 {
		where += fmt.Sprintf(", or set api_key_env or api_key_cmd for it in %s", a.displayPath(cfg.Path))
	}
	return fmt.Sprintf("provider %q has no key: OPENAI_API_KEY is not set, and the gateway at %s will likely refuse requests without one; %s",
		p.Name, showURL(p.BaseURL), where)
}

// localGateway reports whether base points at this machine or a private
// network, where gateways (Ollama, LM Studio, llama.cpp) usually need no key.
func localGateway(base string) bool {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".local") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}

// showURL is a URL fit for a message: user info (a password) and the
// query (a token) are left out.
func showURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
