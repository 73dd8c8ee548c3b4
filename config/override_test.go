package config

import (
	"strings"
	"testing"
	"time"
)

// TestApplyOverride: the override's provider and models replace the
// file's, the file's other settings stay, and neither the key nor the
// replaced gateways show in Describe.
func TestApplyOverride(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"OPENAI_API_KEY": "sk-user-secret-key", "OPENAI_BASE_URL": "https://env.example/v1"})
	writeConfig(t, env, `theme = "nord"
default_model = "gpt-4o"
image_model = "gpt-image-1"
stream_idle_timeout = "7s"

[[providers]]
name = "work"
base_url = "https://gateway.work.example/v1"
api_key_env = "WORK_KEY"

[[models]]
name = "llava"
vision = true
`, 0o600)
	c := mustLoad(t, env)
	yes := true
	c.ApplyOverride(Override{
		Label:    "the built-in demo",
		Provider: "demo", BaseURL: "http://127.0.0.1:1234/v1", APIKey: "demo-key-123456",
		Models: []ModelConfig{
			{Name: "demo-vision", Provider: "work", Vision: &yes},
			{Name: "demo-image", ImageGeneration: &yes, Sizes: []string{"256x256"}},
		},
		DefaultModel: "demo-vision", ImageModel: "demo-image",
	})

	if len(c.Providers) != 1 || c.Providers[0].Name != "demo" || c.Providers[0].BaseURL != "http://127.0.0.1:1234/v1" {
		t.Fatalf("providers = %+v", c.Providers)
	}
	if c.Theme != "nord" || c.Timeouts().StreamIdle != 7*time.Second {
		t.Errorf("the file's other settings are gone: theme %q, timeouts %+v", c.Theme, c.Timeouts())
	}
	if c.DefaultModel != "demo-vision" || c.ImageModel != "demo-image" || c.Overridden() != "the built-in demo" {
		t.Errorf("models: default %q image %q overridden %q", c.DefaultModel, c.ImageModel, c.Overridden())
	}
	cat := c.Catalog()
	if !cat.Lookup("demo-vision").Caps.Vision || !cat.Lookup("demo-image").Caps.ImageGeneration {
		t.Errorf("override models lack their capabilities")
	}
	if cat.Lookup("llava").Source == "config" {
		t.Errorf("the file's [[models]] entry survived the override")
	}
	p, err := c.ProviderFor("demo-vision")
	if err != nil || p.Name != "demo" {
		t.Fatalf("ProviderFor(demo-vision) = %v, %v: a model's provider must not point outside the override", p, err)
	}
	cc, err := p.ClientConfig("ua")
	if err != nil || cc.APIKey != "demo-key-123456" || cc.KeySource != "the built-in demo" || cc.Timeouts.StreamIdle != 7*time.Second {
		t.Fatalf("client config = %+v, %v", cc, err)
	}

	d := c.Describe()
	for _, want := range []string{"replaced by the built-in demo", "provider demo: http://127.0.0.1:1234/v1 (key from the built-in demo)", "model demo-vision [demo, the built-in demo]: chat, vision (default)"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q:\n%s", want, d)
		}
	}
	for _, gone := range []string{"demo-key-123456", "sk-user-secret-key", "work", "env.example", "OPENAI_API_KEY"} {
		if strings.Contains(d, gone) {
			t.Errorf("Describe shows %q:\n%s", gone, d)
		}
	}
}

// TestApplyOverrideWithoutFile: without a config file Describe does not
// claim the environment is used.
func TestApplyOverrideWithoutFile(t *testing.T) {
	env, _ := testEnv(t, nil)
	c := mustLoad(t, env)
	c.ApplyOverride(Override{Label: "the built-in demo", Provider: "demo", BaseURL: "http://127.0.0.1:1/v1", APIKey: "k"})
	d := c.Describe()
	if !strings.Contains(d, "providers and models from the built-in demo") || strings.Contains(d, "OPENAI_BASE_URL") {
		t.Errorf("Describe = %q", d)
	}
}
