package ui

import (
	"errors"
	"sync"

	tea "charm.land/bubbletea/v2"

	"parley/api"
)

// errNoGateway is the send's answer when nothing says where the gateway is.
var errNoGateway = errors.New("no gateway is configured: set OPENAI_BASE_URL and OPENAI_API_KEY, or add a [[providers]] entry to the config file")

// clientPool builds gateway clients, one per model, and shares them. It is
// safe for concurrent use because clients are built in commands, off the
// Update goroutine (resolving a key may run api_key_cmd, which can take
// seconds); Update only takes clients that are already built (ready) and
// never waits for a build.
type clientPool struct {
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

func newClientPool(build func(model string) (*api.Client, error)) *clientPool {
	return &clientPool{build: build, clients: map[string]*clientEntry{}}
}

// configured reports whether the pool can build clients at all.
func (p *clientPool) configured() bool { return p.build != nil }

// ready returns the model's client when it is built, without waiting.
func (p *clientPool) ready(model string) (*api.Client, bool) {
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

// get returns the model's client, building it on first use; concurrent
// callers share one build. A failed build is not kept, so the next call
// tries again (the user may have fixed the key in the meantime). Call it
// only from commands.
func (p *clientPool) get(model string) (*api.Client, error) {
	if p.build == nil {
		return nil, errNoGateway
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

// clientReadyMsg reports a client built ahead of a send.
type clientReadyMsg struct {
	pool   *clientPool
	model  string
	client *api.Client
	err    error
}

// prepare builds the model's client in the background, so the first send
// does not wait; nil when there is nothing to build.
func (p *clientPool) prepare(model string) tea.Cmd {
	if model == "" || p.build == nil {
		return nil
	}
	if _, ok := p.ready(model); ok {
		return nil
	}
	return func() tea.Msg {
		c, err := p.get(model)
		return clientReadyMsg{pool: p, model: model, client: c, err: err}
	}
}
