package config

// Override replaces everything the config file and the environment say
// about gateways: providers, keys and [[models]]. The built-in demo
// (parley --demo) points every command at its own server this way, so no
// configured address or key is used or shown, while the rest of the file
// (theme, limits, timeouts, retries, key bindings) still applies.
type Override struct {
	// Label says where the gateway settings come from, in Describe and in
	// KeySource: "the built-in demo".
	Label string
	// Provider, BaseURL and APIKey define the only provider. The key is
	// held like an api_key in the file and never shown.
	Provider, BaseURL, APIKey string
	// Models replace the [[models]] entries (their Provider is ignored).
	Models []ModelConfig
	// DefaultModel and ImageModel replace default_model and image_model.
	DefaultModel, ImageModel string
}

// ApplyOverride makes c use only the gateway o describes.
func (c *Config) ApplyOverride(o Override) {
	p := c.newProvider(o.Provider, o.BaseURL, 0)
	p.apiKey = o.APIKey
	p.keyLabel = o.Label
	c.Providers = []*Provider{p}
	c.Models = make([]ModelConfig, len(o.Models))
	for i, m := range o.Models {
		m.Provider = ""
		m.Sizes = append([]string(nil), m.Sizes...)
		c.Models[i] = m
	}
	c.DefaultModel, c.ImageModel = o.DefaultModel, o.ImageModel
	c.overridden = o.Label
}

// Overridden is the Label of the Override applied, "" when none was.
func (c *Config) Overridden() string { return c.overridden }
