// Package toolsui holds the chat's tool components: the approval prompt a
// tool call waits on (run once, always this tool, always this server,
// deny) and the /tools list of the MCP servers with their state and
// tools. Each implements the UI's one component contract
// (uictx.Component): it takes a key and returns what the user chose as
// its own type (ApprovalAnswer, ListResult), draws its box into the
// rectangle it is given and names its keys; everything a server or a
// model sent passes termsafe before it is drawn.
package toolsui
