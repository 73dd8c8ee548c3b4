package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/config"
	"parley/internal/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.Serve()
	os.Exit(m.Run())
}

// fake is a server entry running this test binary as the fake MCP server.
func fake(t *testing.T, name, mode string) config.MCPServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.MCPServer{Name: name, Command: exe, Env: map[string]string{mcptest.ServeEnv: mode}}
}

func start(t *testing.T, o Options) *Manager {
	t.Helper()
	o.Environ = os.Environ()
	m := New(t.Context(), o)
	m.Start()
	t.Cleanup(m.Close)
	return m
}

// settle waits until no server is starting any more.
func settle(t *testing.T, m *Manager) []Status {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st := m.Status()
		starting := false
		for _, s := range st {
			starting = starting || s.State == Starting
		}
		if !starting {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("servers still starting after a minute: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTheReferenceServersAnswerAsThemselves(t *testing.T) {
	s := mcptest.Need(t)
	allowed := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("not for the model"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := start(t, Options{Servers: []config.MCPServer{
		{Name: "everything", Command: s.Node, Args: []string{s.Everything}},
		{Name: "filesystem", Command: s.Node, Args: []string{s.Filesystem, allowed}},
	}})
	for _, st := range settle(t, m) {
		if st.State != Connected {
			t.Fatalf("%s is %v: %s", st.Name, st.State, st.Err)
		}
	}
	if _, ok := m.Lookup("get-sum"); !ok {
		t.Fatalf("get-sum is not among %+v", m.Tools())
	}
	res, err := m.Call(t.Context(), "get-sum", `{"a": 2, "b": 3}`)
	if err != nil || res.IsError || res.Text != "The sum of 2 and 3 is 5." {
		t.Fatalf("get-sum: %+v, %v", res, err)
	}
	res, err = m.Call(t.Context(), "read_text_file", `{"path": `+strconv.Quote(outside)+`}`)
	if err != nil || !res.IsError || !strings.Contains(res.Text, "Access denied - path outside allowed directories") || strings.Contains(res.Text, "not for the model") {
		t.Fatalf("reading outside the allowed folder: %+v, %v", res, err)
	}
}

func TestAServerThatHangsAtStartFails(t *testing.T) {
	m := start(t, Options{StartTimeout: 500 * time.Millisecond, Servers: []config.MCPServer{fake(t, "slow", "hang")}})
	st := settle(t, m)[0]
	if st.State != Failed || !strings.Contains(st.Err, "slow did not start within 500ms") {
		t.Fatalf("a hanging start: %v %q", st.State, st.Err)
	}
	select {
	case ch := <-m.Changes():
		if ch.Server != "slow" || ch.State != Failed {
			t.Fatalf("change %+v", ch)
		}
	default:
		t.Fatal("the failure was not reported as a change")
	}
}

func TestAProgramThatIsNoServerFailsWithItsReason(t *testing.T) {
	m := start(t, Options{Servers: []config.MCPServer{
		{Name: "nothere", Command: "/nonexistent/parley-mcp"},
		{Name: "quits", Command: "sh", Args: []string{"-c", "echo 'cannot open the database' >&2; exit 4"}},
	}})
	st := settle(t, m)
	if st[0].State != Failed || !strings.Contains(st[0].Err, "nothere could not be started") {
		t.Fatalf("a missing program: %v %q", st[0].State, st[0].Err)
	}
	if st[1].State != Failed || !strings.Contains(st[1].Err, "exit status 4") || !strings.Contains(st[1].Err, "cannot open the database") {
		t.Fatalf("a program that exits: %v %q", st[1].State, st[1].Err)
	}
}

func TestAServerThatDiesMidCallFailsTheCallAndIsMarked(t *testing.T) {
	m := start(t, Options{Servers: []config.MCPServer{fake(t, "fragile", "serve")}})
	if st := settle(t, m)[0]; st.State != Connected {
		t.Fatalf("the fake did not connect: %v %s", st.State, st.Err)
	}
	_, err := m.Call(t.Context(), "die", `{}`)
	if err == nil {
		t.Fatal("a call to a server that died succeeded")
	}
	deadline := time.Now().Add(10 * time.Second)
	for m.Status()[0].State != Failed {
		if time.Now().After(deadline) {
			t.Fatalf("the dead server is still %v", m.Status()[0].State)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := m.Status()[0]; !strings.Contains(st.Err, "exit status 3") || !strings.Contains(st.Err, "dies on purpose") || len(st.Tools) != 0 {
		t.Fatalf("the dead server's status %+v", st)
	}
	if err := m.Restart("fragile"); err != nil {
		t.Fatal(err)
	}
	if st := settle(t, m)[0]; st.State != Connected {
		t.Fatalf("after a restart: %v %s", st.State, st.Err)
	}
	if res, err := m.Call(t.Context(), "echo", `{"text":"back"}`); err != nil || res.Text != "echo: back" {
		t.Fatalf("after a restart: %+v %v", res, err)
	}
	if err := m.Restart("nosuch"); err == nil || !strings.Contains(err.Error(), `no MCP server is named "nosuch"`) {
		t.Fatalf("restarting an unknown server: %v", err)
	}
}

func TestACallIsBoundedInTimeAndSize(t *testing.T) {
	m := start(t, Options{CallTimeout: 300 * time.Millisecond, MaxMessageBytes: 1 << 20, Servers: []config.MCPServer{fake(t, "bad", "serve")}})
	settle(t, m)
	began := time.Now()
	_, err := m.Call(t.Context(), "hang", `{}`)
	if err == nil || !strings.Contains(err.Error(), "hang of bad did not answer within 300ms") {
		t.Fatalf("a hanging call: %v", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("a 300 ms limit took %v", took)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if _, err := m.Call(ctx, "hang", `{}`); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled call: %v", err)
	}
	if _, err := m.Call(t.Context(), "flood", `{"mb": 4}`); err == nil {
		t.Fatal("a 4 MB message passed a 1 MB bound")
	}
	if _, err := m.Call(t.Context(), "echo", `not json`); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("bad arguments: %v", err)
	}
}

func TestClashingNamesArePrefixedByServer(t *testing.T) {
	tools := []Tool{{Server: "a", Name: "search"}, {Server: "b", Name: "search"}, {Server: "b", Name: "read.file"}}
	exposeNames(tools)
	got := []string{tools[0].Exposed, tools[1].Exposed, tools[2].Exposed}
	if strings.Join(got, " ") != "a_search b_search read_file" {
		t.Fatalf("exposed names %v", got)
	}
}
