package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeEnv set in a test binary's environment makes Serve run a fake MCP
// server on stdin and stdout instead of the tests.
const ServeEnv = "PARLEY_MCPTEST_SERVE"

// Serve runs the fake server when the process was started as one
// (ServeEnv set) and exits; otherwise it returns at once. Call it first in
// TestMain. The fake's tools misbehave on purpose:
//
//	echo   {text}      answers "echo: " + text
//	hang   {}          never answers
//	die    {}          exits in the middle of the call
//	flood  {mb}        answers with mb megabytes of text in one message
//	spawn  {file}      starts a child (sleep 60), writes its pid to file
//	image  {}          answers with a PNG image and a line of text
//
// With ServeEnv=hang the server never answers the handshake.
func Serve() {
	mode := os.Getenv(ServeEnv)
	if mode == "" {
		return
	}
	if mode == "hang" {
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "parley-fake", Version: "1"}, nil)
	object := json.RawMessage(`{"type":"object"}`)
	add := func(name string, h func(map[string]any) (*sdk.CallToolResult, error)) {
		s.AddTool(&sdk.Tool{Name: name, Description: "the fake's " + name, InputSchema: object}, func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args map[string]any
			_ = json.Unmarshal(r.Params.Arguments, &args)
			return h(args)
		})
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	add("echo", func(a map[string]any) (*sdk.CallToolResult, error) { return text(fmt.Sprint("echo: ", a["text"])), nil })
	add("hang", func(map[string]any) (*sdk.CallToolResult, error) { select {} })
	add("die", func(map[string]any) (*sdk.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "the fake server dies on purpose")
		os.Exit(3)
		return nil, nil
	})
	add("flood", func(a map[string]any) (*sdk.CallToolResult, error) {
		mb, _ := a["mb"].(float64)
		return text(strings.Repeat("x", int(mb)<<20)), nil
	})
	add("spawn", func(a map[string]any) (*sdk.CallToolResult, error) {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		file, _ := a["file"].(string)
		if err := os.WriteFile(file, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600); err != nil {
			return nil, err
		}
		return text("spawned"), nil
	})
	add("image", func(map[string]any) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a red dot"}, &sdk.ImageContent{MIMEType: "image/png", Data: RedDotPNG()}}}, nil
	})
	_ = s.Run(context.Background(), &sdk.StdioTransport{})
	os.Exit(0)
}
