package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"parley/api"
	"parley/config"
	"parley/internal/safefile"
)

// The model cache keeps the model lists `parley models` last received from
// each gateway, so shell completion can offer them without the network.
// It lives in $XDG_CACHE_HOME/parley/models.json (default ~/.cache) and is
// bounded: a gateway listing thousands of models, or a file grown by
// hand, never makes completion slow.
const (
	modelCacheVersion  = 1
	maxModelCacheBytes = 1 << 20
	maxCachedGateways  = 16
	maxCachedModels    = 2000 // per gateway
	maxModelIDBytes    = 200
)

type modelCache struct {
	Version  int             `json:"version"`
	Gateways []cachedGateway `json:"gateways"`
}

type cachedGateway struct {
	// BaseURL is the provider's base_url as configured (or
	// OPENAI_BASE_URL), which completion matches against the config.
	BaseURL string    `json:"base_url"`
	Saved   time.Time `json:"saved"`
	Models  []string  `json:"models"`
	// Said is what the list said of the models that it said anything of:
	// what each takes and makes (api.ModelInfo), so a model the config
	// does not know is sent images the gateway says it sees.
	Said []api.ModelInfo `json:"said,omitempty"`
}

// modelCachePath is where the cache lives; "" when neither an absolute
// XDG_CACHE_HOME nor the home directory is known.
func modelCachePath(getenv func(string) string, home string) string {
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "parley", "models.json")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "parley", "models.json")
}

// loadModelCache reads the cache; a missing, oversized or broken file is
// an empty cache (it is only a convenience).
func loadModelCache(path string) modelCache {
	if path == "" {
		return modelCache{}
	}
	b, err := safefile.Read(path, maxModelCacheBytes)
	if err != nil {
		return modelCache{}
	}
	var c modelCache
	if json.Unmarshal(b, &c) != nil || c.Version != modelCacheVersion {
		return modelCache{}
	}
	return c
}

// models returns the cached ids of the gateway at baseURL.
func (c modelCache) models(baseURL string) []string {
	for _, g := range c.Gateways {
		if g.BaseURL == baseURL {
			return g.Models
		}
	}
	return nil
}

// said returns what the cached list of the gateway at baseURL said of
// its models.
func (c modelCache) said(baseURL string) []api.ModelInfo {
	for _, g := range c.Gateways {
		if g.BaseURL == baseURL {
			return g.Said
		}
	}
	return nil
}

// maxModalities bounds the modalities kept of one model: real lists name
// two to five.
const maxModalities = 8

// putInfo records a listing for baseURL (see put) with what it said of
// each model.
func (c *modelCache) putInfo(baseURL string, infos []api.ModelInfo, now time.Time) {
	c.put(baseURL, api.ModelIDs(infos), now)
	var said []api.ModelInfo
	for _, m := range infos {
		if (m.Said() || m.Output != nil) && validModelID(m.ID) && len(said) < maxCachedModels {
			said = append(said, api.ModelInfo{ID: m.ID, Input: m.Input[:min(len(m.Input), maxModalities)], Output: m.Output[:min(len(m.Output), maxModalities)]})
		}
	}
	c.Gateways[0].Said = said
}

// put records ids for baseURL, most recent first, within the bounds. Ids
// that could not be completed safely are left out.
func (c *modelCache) put(baseURL string, ids []string, now time.Time) {
	var keep []string
	for _, id := range ids {
		if validModelID(id) && len(keep) < maxCachedModels {
			keep = append(keep, id)
		}
	}
	slices.Sort(keep)
	keep = slices.Compact(keep)
	c.Version = modelCacheVersion
	c.Gateways = slices.DeleteFunc(c.Gateways, func(g cachedGateway) bool { return g.BaseURL == baseURL })
	c.Gateways = append([]cachedGateway{{BaseURL: baseURL, Saved: now.UTC(), Models: keep}}, c.Gateways...)
	if len(c.Gateways) > maxCachedGateways {
		c.Gateways = c.Gateways[:maxCachedGateways]
	}
}

// rememberModels saves the list a gateway gave `parley models` for shell
// completion. The demo's models are not saved: its address changes with
// every run. A failure to save is said, but does not fail the command.
func (a *app) rememberModels(cfg *config.Config, provider string, infos []api.ModelInfo) {
	p := cfg.Provider(provider)
	path := modelCachePath(a.env.Getenv, a.env.HomeDir)
	if cfg.Overridden() != "" || p == nil || path == "" {
		return
	}
	c := loadModelCache(path)
	c.putInfo(p.BaseURL, infos, a.env.Now())
	// Drop the oldest gateways until the file fits the read limit.
	b, err := json.Marshal(c)
	for err == nil && len(b) > maxModelCacheBytes && len(c.Gateways) > 1 {
		c.Gateways = c.Gateways[:len(c.Gateways)-1]
		b, err = json.Marshal(c)
	}
	if err == nil && len(b) > maxModelCacheBytes {
		return // one gateway's list alone is too big to be worth keeping
	}
	if err == nil {
		err = writeFileAtomic(path, b)
	}
	if err != nil {
		a.console.warn(fmt.Sprintf("could not save the model list for shell completion (%v)", err))
	}
}

// writeFileAtomic writes b to path through a temporary file in the same
// directory, so a reader never sees half a file.
func writeFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".models-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a successful rename there is nothing left to remove
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// knownModels are the ids the gateways of cfg listed last time `parley
// models` asked (from the cache; nothing is fetched), so a refusal can
// name models the user can use, and what those lists said of them.
func (a *app) knownModels(cfg *config.Config) ([]string, []api.ModelInfo) {
	if cfg.Overridden() != "" {
		return nil, nil
	}
	cache := loadModelCache(modelCachePath(a.env.Getenv, a.env.HomeDir))
	var (
		ids  []string
		said []api.ModelInfo
	)
	for _, p := range cfg.Providers {
		ids = append(ids, cache.models(p.BaseURL)...)
		said = append(said, cache.said(p.BaseURL)...)
	}
	return ids, said
}

// modelLister asks the gateway that serves a model for its model list;
// ok is false when the list cannot be had (a refusal then stands as it
// was).
type modelLister func(model string) (_ []api.ModelInfo, ok bool)

// modelListerFor lists the models of cfg's gateways: one listing, bounded
// by listTimeout and kept in the cache, so a refusal can say what the
// gateway's models take and name those that can.
func (a *app) modelListerFor(ctx context.Context, cfg *config.Config) modelLister {
	return func(model string) ([]api.ModelInfo, bool) {
		prov, err := cfg.ProviderFor(model)
		if err != nil {
			return nil, false
		}
		client, err := a.client(cfg, model)
		if err != nil {
			return nil, false
		}
		lctx, cancel := context.WithTimeout(ctx, listTimeout)
		defer cancel()
		infos, err := client.ListModelInfo(lctx)
		if err != nil {
			return nil, false
		}
		a.rememberModels(cfg, prov.Name, infos)
		return infos, true
	}
}
