package chat

import (
	"context"
	"slices"
	"testing"

	"parley/api"
)

// The engine holds the model of the next turn and what is known of the
// models: a change is reported, and the gateway's list, once read, joins
// the catalog without losing the config's models or its path.
func TestTheEngineKnowsItsModels(t *testing.T) {
	cat := api.NewCatalog([]api.Model{{Name: "mine", Caps: api.Capabilities{Vision: true}}}).WithConfigPath("~/.config/parley/config.toml")
	e := New(context.Background(), Options{Model: "mine", Catalog: cat})
	if e.Model() != "mine" || e.Listed() != nil {
		t.Fatalf("model %q, listed %v", e.Model(), e.Listed())
	}
	if e.SetModel("mine") {
		t.Error("choosing the model in use reported a change")
	}
	if !e.SetModel("other") || e.Model() != "other" {
		t.Errorf("model %q after choosing other", e.Model())
	}
	e.SetListed([]string{"gpt-image-1", "other"})
	if !slices.Equal(e.Listed(), []string{"gpt-image-1", "other"}) {
		t.Errorf("listed %v", e.Listed())
	}
	got := e.Catalog()
	if got.ConfigPath() != "~/.config/parley/config.toml" || len(got.Configured()) != 1 || !got.Lookup("mine").Caps.Vision {
		t.Errorf("the config's models were lost: %+v at %q", got.Configured(), got.ConfigPath())
	}
	if !slices.Contains(got.ModelsWith(api.CapImageGeneration), "gpt-image-1") {
		t.Errorf("the listed image model is not known: %v", got.ModelsWith(api.CapImageGeneration))
	}
	if New(context.Background(), Options{}).Catalog() == nil {
		t.Error("an engine made without a catalog has none")
	}
}
