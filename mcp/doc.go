// Package mcp runs the MCP servers the config names ([[mcp_servers]]) with
// the official Go SDK and offers their tools to the chat engine's tool loop.
//
// A local server is a program parley starts without a shell, in its own
// process group (stopped whole with parley), talking newline-delimited
// JSON-RPC on its stdin and stdout; a remote one is reached over streamable
// HTTP. Servers start in the background: nothing waits for them but a call
// to one of their tools. Everything a server sends is bounded (one message,
// a start, a call) and untrusted: a server's text reaches a terminal only
// through termsafe, and nothing it sends can start a program.
package mcp
