package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"parley/config"
	"parley/termsafe"
)

// conn is one running server: its session and, for a local server, its
// program.
type conn struct {
	session *sdk.ClientSession
	tools   []Tool
	proc    *process // nil for a remote server
	once    sync.Once
}

// connect starts the server (or reaches it), makes the protocol's
// handshake and lists its tools, all within the start time limit.
func connect(life context.Context, cfg config.MCPServer, o Options) (*conn, error) {
	ctx, cancel := context.WithTimeout(life, o.StartTimeout)
	defer cancel()
	var transport sdk.Transport
	c := &conn{}
	if cfg.Command != "" {
		p, t, err := startProcess(life, cfg, o)
		if err != nil {
			return nil, err
		}
		c.proc, transport = p, t
	} else {
		t, err := httpTransport(ctx, cfg, o)
		if err != nil {
			return nil, err
		}
		transport = t
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "parley", Version: "1"}, nil)
	sess, err := client.Connect(ctx, transport, nil)
	if err != nil {
		c.close()
		return nil, c.startErr(ctx, cfg, o, "did not complete the MCP handshake", err)
	}
	c.session = sess
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			c.close()
			return nil, c.startErr(ctx, cfg, o, "did not list its tools", err)
		}
		if len(c.tools) == maxToolsPerServer {
			break
		}
		c.tools = append(c.tools, toolOf(cfg.Name, t))
	}
	sortTools(c.tools)
	return c, nil
}

// startErr says why a start failed, in one sentence: the time limit, the
// program's exit and the last line it wrote to stderr, or the error.
func (c *conn) startErr(ctx context.Context, cfg config.MCPServer, o Options, what string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s did not start within %v (%s); check that it is an MCP server speaking on %s", cfg.Name, o.StartTimeout, what, kindOf(cfg))
	}
	if c.proc != nil {
		if why := c.proc.exitReason(); why != "" {
			return fmt.Errorf("%s %s", cfg.Name, why)
		}
	}
	return fmt.Errorf("%s %s: %s", cfg.Name, what, oneLine(err.Error()))
}

func kindOf(cfg config.MCPServer) string {
	if cfg.Command != "" {
		return "stdin and stdout"
	}
	return "streamable HTTP at " + cfg.URL
}

// toolOf keeps what the model needs of a tool, bounded.
func toolOf(server string, t *sdk.Tool) Tool {
	out := Tool{Server: server, Name: t.Name, Description: t.Description}
	if len(out.Description) > maxDescription {
		out.Description = out.Description[:maxDescription]
	}
	if b, err := jsonOf(t.InputSchema); err == nil && len(b) <= maxSchemaBytes {
		out.Schema = b
	} else {
		out.Schema = []byte(`{"type":"object"}`)
	}
	return out
}

// wait returns when the server stopped by itself, saying why.
func (c *conn) wait() string {
	err := c.session.Wait()
	if c.proc != nil {
		if why := c.proc.exitReason(); why != "" {
			return "the server " + why
		}
	}
	if err != nil {
		return "the connection to the server ended: " + oneLine(err.Error())
	}
	return "the server closed the connection"
}

// close ends the session and stops the program with its whole process
// group.
func (c *conn) close() {
	c.once.Do(func() {
		if c.session != nil {
			_ = c.session.Close()
		}
		if c.proc != nil {
			c.proc.stop(time.Second)
		}
	})
}

// httpTransport is streamable HTTP with the configured headers and bearer
// token.
func httpTransport(ctx context.Context, cfg config.MCPServer, o Options) (sdk.Transport, error) {
	tok, err := cfg.BearerToken(ctx)
	if err != nil {
		return nil, err
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.ResponseHeaderTimeout = o.CallTimeout
	hc := &http.Client{Transport: &headers{base: base, set: cfg.Headers, token: tok}}
	return &sdk.StreamableClientTransport{
		Endpoint: cfg.URL, HTTPClient: hc, MaxRetries: 2,
		DisableStandaloneSSE: true, MaxEventSize: o.MaxMessageBytes,
	}, nil
}

// headers adds the configured headers and the bearer token to each
// request to the server.
type headers struct {
	base  http.RoundTripper
	set   map[string]string
	token string
}

func (h *headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.set {
		r.Header.Set(k, v)
	}
	if h.token != "" {
		r.Header.Set("Authorization", "Bearer "+h.token)
	}
	return h.base.RoundTrip(r)
}

// oneLine is an error's text on one line, safe for a terminal.
func oneLine(s string) string {
	s = strings.TrimSpace(termsafe.Line(s))
	if len(s) > 300 {
		s = cut(s, 300) + "…"
	}
	return s
}

// cut is s cut to at most n bytes at a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// jsonOf marshals v.
func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }
