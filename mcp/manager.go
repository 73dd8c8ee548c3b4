package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"parley/api"
	"parley/config"
)

// Defaults of the bounds a server lives within.
const (
	DefaultStartTimeout    = 30 * time.Second
	DefaultMaxMessageBytes = 4 << 20 // one JSON-RPC message from a server
	maxToolsPerServer      = 256
	maxSchemaBytes         = 64 << 10 // one tool's input schema
	maxDescription         = 2 << 10
)

// State is where a server is in its life.
type State int

// The states of a server.
const (
	Starting State = iota
	Connected
	Failed
	Stopped
)

func (s State) String() string {
	return [...]string{"starting", "connected", "failed", "stopped"}[s]
}

// Tool is one tool of a connected server.
type Tool struct {
	Server, Name string
	// Exposed is the name the model sees: Name, or "server_name" where two
	// servers have a tool of the same name.
	Exposed     string
	Description string
	Schema      json.RawMessage
}

// Status is one server as /tools lists it.
type Status struct {
	Name  string
	State State
	Err   string // why it failed or stopped, one sentence starting with its name
	Tools []Tool
}

// Change is a server that changed state, for the chat's notice.
type Change struct {
	Server string
	State  State
	Err    string
	Tools  int
}

// Options configure a Manager.
type Options struct {
	Servers []config.MCPServer
	// Environ is parley's environment; a local server gets it plus its env.
	Environ []string
	// StartTimeout bounds a server's start (the program started, the
	// protocol's handshake and its list of tools). Default DefaultStartTimeout.
	StartTimeout time.Duration
	// CallTimeout bounds one call. Default config.DefaultToolTimeout.
	CallTimeout time.Duration
	// MaxMessageBytes bounds one message from a server. Default
	// DefaultMaxMessageBytes.
	MaxMessageBytes int
}

// Manager runs the configured servers. Its methods may be called from any
// goroutine; Close stops every server and the goroutines it started.
type Manager struct {
	ctx    context.Context
	cancel context.CancelFunc
	opts   Options
	wg     sync.WaitGroup

	mu      sync.Mutex
	servers []*server
	changes chan Change
	closed  bool
}

// New makes a Manager for the servers of o; none runs before Start.
func New(ctx context.Context, o Options) *Manager {
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = config.DefaultToolTimeout
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Manager{ctx: ctx, cancel: cancel, opts: o, changes: make(chan Change, 64)}
	for _, c := range o.Servers {
		m.servers = append(m.servers, &server{cfg: c, state: Stopped})
	}
	return m
}

// Configured reports whether any server is configured.
func (m *Manager) Configured() bool { return m != nil && len(m.servers) > 0 }

// Start starts every server in the background; it returns at once.
func (m *Manager) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		m.startLocked(s)
	}
}

// Done is closed when the manager is closed (or its context ends): a
// reader of Changes stops waiting then.
func (m *Manager) Done() <-chan struct{} { return m.ctx.Done() }

// Changes delivers each change of a server's state. Changes are dropped
// when nobody reads them (the list in Status stays right).
func (m *Manager) Changes() <-chan Change { return m.changes }

// Restart stops the server named name and starts it again.
func (m *Manager) Restart(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.cfg.Name == name {
			m.stopLocked(s)
			m.startLocked(s)
			return nil
		}
	}
	return fmt.Errorf("no MCP server is named %q; /tools lists the configured ones", name)
}

// Status lists the servers in config order.
func (m *Manager) Status() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, 0, len(m.servers))
	exposed := m.toolsLocked()
	for _, s := range m.servers {
		st := Status{Name: s.cfg.Name, State: s.state, Err: s.err}
		for _, t := range exposed {
			if t.Server == s.cfg.Name {
				st.Tools = append(st.Tools, t)
			}
		}
		out = append(out, st)
	}
	return out
}

// Tools are the tools of the connected servers, with the names the model
// sees.
func (m *Manager) Tools() []Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.toolsLocked()
}

func (m *Manager) toolsLocked() []Tool {
	var all []Tool
	for _, s := range m.servers {
		if s.state == Connected {
			all = append(all, s.tools...)
		}
	}
	exposeNames(all)
	return all
}

// Specs are the tools as a request offers them.
func (m *Manager) Specs() []api.Tool {
	tools := m.Tools()
	out := make([]api.Tool, 0, len(tools))
	for _, t := range tools {
		out = append(out, api.Tool{Type: api.ToolTypeFunction, Function: api.ToolFunction{Name: t.Exposed, Description: t.Description, Parameters: t.Schema}})
	}
	return out
}

// Lookup finds the tool the model named.
func (m *Manager) Lookup(exposed string) (Tool, bool) {
	for _, t := range m.Tools() {
		if t.Exposed == exposed {
			return t, true
		}
	}
	return Tool{}, false
}

// ErrUnknownTool is a call of a tool no connected server has.
var ErrUnknownTool = errors.New("no connected MCP server has this tool")

// Call runs the tool the model named with its arguments (a JSON object, as
// the model wrote it) within the call time limit.
func (m *Manager) Call(ctx context.Context, exposed, args string) (Result, error) {
	t, ok := m.Lookup(exposed)
	if !ok {
		return Result{}, fmt.Errorf("%q: %w", exposed, ErrUnknownTool)
	}
	m.mu.Lock()
	var sess *sdk.ClientSession
	for _, s := range m.servers {
		if s.cfg.Name == t.Server && s.state == Connected {
			sess = s.session
		}
	}
	m.mu.Unlock()
	if sess == nil {
		return Result{}, fmt.Errorf("the MCP server %s is not connected", t.Server)
	}
	var raw json.RawMessage
	if args == "" {
		raw = json.RawMessage("{}")
	} else {
		var obj map[string]any
		if err := json.Unmarshal([]byte(args), &obj); err != nil {
			return Result{}, fmt.Errorf("the arguments are not a JSON object (%v), so the tool was not run", err)
		}
		raw = json.RawMessage(args)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
	defer cancel()
	res, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: t.Name, Arguments: raw})
	switch {
	case err == nil:
		return convert(res), nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return Result{}, fmt.Errorf("%s of %s did not answer within %v, so the call was given up", t.Name, t.Server, m.opts.CallTimeout)
	case ctx.Err() != nil:
		return Result{}, fmt.Errorf("the call was cancelled: %w", ctx.Err())
	}
	return Result{}, fmt.Errorf("%s of %s failed: %w", t.Name, t.Server, err)
}

// Close stops every server and waits for the goroutines the manager
// started.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	for _, s := range m.servers {
		m.stopLocked(s)
	}
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
}

// startLocked starts s in the background.
func (m *Manager) startLocked(s *server) {
	if m.closed {
		return
	}
	s.gen++
	gen := s.gen
	s.state, s.err, s.tools = Starting, "", nil
	ctx, cancel := context.WithCancel(m.ctx)
	s.cancel = cancel
	m.wg.Go(func() { m.run(ctx, s, gen) })
}

// run starts one server, reports how that went and watches it until it
// stops.
func (m *Manager) run(ctx context.Context, s *server, gen int) {
	conn, err := connect(ctx, s.cfg, m.opts)
	m.mu.Lock()
	if s.gen != gen {
		m.mu.Unlock()
		if conn != nil {
			conn.close()
		}
		return
	}
	if err != nil {
		s.state, s.err = Failed, err.Error()
		m.notifyLocked(s)
		m.mu.Unlock()
		return
	}
	s.conn, s.session, s.tools, s.state = conn, conn.session, conn.tools, Connected
	m.notifyLocked(s)
	m.mu.Unlock()

	why := conn.wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.gen != gen || s.state != Connected {
		return
	}
	s.state, s.err, s.tools, s.session = Failed, s.cfg.Name+" stopped: "+why, nil, nil
	s.conn = nil
	m.notifyLocked(s)
	m.wg.Go(conn.close)
}

func (m *Manager) notifyLocked(s *server) {
	select {
	case m.changes <- Change{Server: s.cfg.Name, State: s.state, Err: s.err, Tools: len(s.tools)}:
	default:
	}
}

// server is one configured server and what runs of it.
type server struct {
	cfg     config.MCPServer
	gen     int
	state   State
	err     string
	tools   []Tool
	conn    *conn
	session *sdk.ClientSession
	cancel  context.CancelFunc
}

// stopLocked stops s; its program is stopped off the caller's goroutine
// (a polite close takes up to a second), and Close waits for that.
func (m *Manager) stopLocked(s *server) {
	s.gen++
	if s.cancel != nil {
		s.cancel()
	}
	if c := s.conn; c != nil {
		m.wg.Go(c.close)
	}
	s.conn, s.session, s.tools = nil, nil, nil
	s.state, s.err = Stopped, ""
}

// sortTools keeps a server's tools in name order, so requests are stable.
func sortTools(ts []Tool) {
	slices.SortFunc(ts, func(a, b Tool) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
}

// Settle waits until no server is starting (each start is bounded by the
// start time limit) or ctx ends, and returns the servers' status.
func (m *Manager) Settle(ctx context.Context) []Status {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		st := m.Status()
		if !slices.ContainsFunc(st, func(s Status) bool { return s.State == Starting }) {
			return st
		}
		select {
		case <-ctx.Done():
			return st
		case <-tick.C:
		}
	}
}
