// Package demo is parley's built-in demo (parley --demo): the spec-exact
// fake gateway of api/fake, served in-process on loopback, with models
// whose replies show every feature — streamed Markdown, echo, image
// descriptions, reasoning shown apart from the answer, replies about
// attached text files, generated and edited PNGs, a stall and failures —
// so the
// first command a new user runs works without an account or a network.
package demo

import (
	"fmt"
	"net"
	"time"

	"parley/api/fake"
	"parley/config"
)

// Label names the demo where parley says where settings come from.
const Label = "the built-in demo"

// ProviderName is the demo's only provider.
const ProviderName = "demo"

// apiKey is the demo server's bearer key. It guards nothing (the server
// listens on loopback for the life of one command) and is not a secret;
// it exists because the gateway, like a real one, refuses requests without
// a key.
const apiKey = "parley-demo-key"

// DefaultDeltasPerSecond is the demo's streaming pace: about what a fast
// hosted model delivers, slow enough to watch the Markdown take shape.
const DefaultDeltasPerSecond = 60

// MaxDeltasPerSecond bounds Options.DeltasPerSecond.
const MaxDeltasPerSecond = 5000

// Options tune the demo gateway.
type Options struct {
	// DeltasPerSecond is the streaming pace: 0 means
	// DefaultDeltasPerSecond, a negative value streams without pauses.
	DeltasPerSecond float64
}

// Gateway is a running demo gateway.
type Gateway struct {
	srv  *fake.Server
	pace time.Duration // pause before each content delta
}

// Start serves the demo gateway on a free loopback port. The caller must
// Close it; Close ends every reply in progress.
func Start(opts Options) (*Gateway, error) {
	dps := opts.DeltasPerSecond
	switch {
	case dps == 0:
		dps = DefaultDeltasPerSecond
	case dps > MaxDeltasPerSecond:
		return nil, fmt.Errorf("the demo streams at most %d deltas per second, not %g", MaxDeltasPerSecond, dps)
	}
	var pace time.Duration
	if dps > 0 {
		pace = time.Duration(float64(time.Second) / dps)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the built-in demo could not listen on 127.0.0.1 (%w); check that the loopback interface is up", err)
	}
	g := &Gateway{pace: pace}
	srv, err := fake.Listen(
		fake.WithListener(l),
		fake.WithAPIKey(apiKey),
		fake.WithModels(specs()...),
		fake.WithResponder(g.respond),
	)
	if err != nil {
		return nil, err
	}
	g.srv = srv
	return g, nil
}

// URL is the base URL clients use: http://127.0.0.1:PORT/v1.
func (g *Gateway) URL() string { return g.srv.URL() }

// Close stops the server and waits for its handlers. It is idempotent.
func (g *Gateway) Close() { g.srv.Close() }

// Override is the configuration that points parley at this gateway: one
// provider with the demo key, the demo models with their capabilities,
// demo-chat for chat and demo-image for images.
func (g *Gateway) Override() config.Override {
	o := ModelsOverride()
	o.BaseURL, o.APIKey = g.URL(), apiKey
	return o
}

// ModelsOverride is Override without a running gateway (no address, no
// key), for listing the demo's models and capabilities, as shell
// completion does, without starting one.
func ModelsOverride() config.Override {
	return config.Override{
		Label:        Label,
		Provider:     ProviderName,
		Models:       modelConfigs(),
		DefaultModel: ModelChat,
		ImageModel:   ModelImage,
	}
}
