package chat

import (
	"errors"
	"sync"

	"parley/api"
)

// ErrNoGateway is a send's answer when nothing says where the gateway is.
var ErrNoGateway = errors.New("no gateway is configured: set OPENAI_BASE_URL and OPENAI_API_KEY, or add a [[providers]] entry to the config file")

// Clients builds gateway clients, one per model, and shares them. It is
// safe for concurrent use: clients are built off the owner's goroutine
// (resolving a key may run api_key_cmd, which can take seconds), and the
// owner only takes clients that are already built (Ready), never waiting
// for a build.
type Clients struct {
	build func(model string) (*api.Client, error)

	mu      sync.Mutex
	clients map[string]*clientEntry
}

// clientEntry is one model's client; done is closed once the build ended.
type clientEntry struct {
	done   chan struct{}
	client *api.Client
	err    error
}

// NewClients is a pool that builds a model's client with build (nil: no
// gateway is configured, and every Get says so).
func NewClients(build func(model string) (*api.Client, error)) *Clients {
	return &Clients{build: build, clients: map[string]*clientEntry{}}
}

// Configured reports whether the pool can build clients at all.
func (p *Clients) Configured() bool { return p.build != nil }

// Ready returns the model's client when it is built, without waiting.
func (p *Clients) Ready(model string) (*api.Client, bool) {
	p.mu.Lock()
	e := p.clients[model]
	p.mu.Unlock()
	if e == nil {
		return nil, false
	}
	select {
	case <-e.done:
		return e.client, e.client != nil
	default:
		return nil, false
	}
}

// Get returns the model's client, building it on first use; concurrent
// callers share one build. A failed build is not kept, so the next call
// tries again (the user may have fixed the key in the meantime). It may
// wait for a build: call it off the owner's goroutine.
func (p *Clients) Get(model string) (*api.Client, error) {
	if p.build == nil {
		return nil, ErrNoGateway
	}
	p.mu.Lock()
	e := p.clients[model]
	if e == nil {
		e = &clientEntry{done: make(chan struct{})}
		p.clients[model] = e
		p.mu.Unlock()
		e.client, e.err = p.build(model)
		if e.err != nil {
			p.mu.Lock()
			delete(p.clients, model)
			p.mu.Unlock()
		}
		close(e.done)
		return e.client, e.err
	}
	p.mu.Unlock()
	<-e.done
	return e.client, e.err
}

// NeedsBuild reports whether model's client is yet to be built: the owner
// then runs Get off its goroutine.
func (p *Clients) NeedsBuild(model string) bool {
	if model == "" || p.build == nil {
		return false
	}
	_, ok := p.Ready(model)
	return !ok
}
