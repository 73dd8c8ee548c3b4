package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"parley/config"
)

// TestARemoteServerGetsItsHeadersAndToken: a server over streamable HTTP
// (the SDK's own, in the test) sees the configured headers and the bearer
// token from bearer_token_cmd on every request, and its tool answers.
func TestARemoteServerGetsItsHeadersAndToken(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "remote", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "shout", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var a struct{ Text string }
		_ = json.Unmarshal(r.Params.Arguments, &a)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.ToUpper(a.Text)}}}, nil
	})
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var mu sync.Mutex
	var seen []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Team"))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	m := start(t, Options{Servers: []config.MCPServer{
		{Name: "remote", URL: ts.URL, Headers: map[string]string{"X-Team": "docs"}, BearerTokenCmd: "echo s3cret"},
		{Name: "locked", URL: ts.URL},
	}})
	st := settle(t, m)
	if st[0].State != Connected {
		t.Fatalf("the remote server: %v %s", st[0].State, st[0].Err)
	}
	if st[1].State != Failed || !strings.HasPrefix(st[1].Err, "locked did not complete the MCP handshake") {
		t.Fatalf("a server refusing parley: %v %q", st[1].State, st[1].Err)
	}
	res, err := m.Call(t.Context(), "shout", `{"text": "hello"}`)
	if err != nil || res.Text != "HELLO" {
		t.Fatalf("the remote call: %+v %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		if s != "Bearer s3cret|docs" && s != "|" {
			t.Fatalf("a request carried %q", s)
		}
	}
}
