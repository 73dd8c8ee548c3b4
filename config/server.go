package config

// ServerProvider is a provider for a server chosen outside the config file
// (the first-run screen found it on this machine): the base URL, no key
// (local servers need none), and the config's timeouts and retries like
// every other provider.
func (c *Config) ServerProvider(baseURL string) *Provider {
	return c.newProvider("local", baseURL, 0)
}
