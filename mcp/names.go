package mcp

import (
	"strconv"
	"strings"
)

// maxToolName is the longest function name the chat-completions interface
// takes.
const maxToolName = 64

// wireName makes a tool name the interface accepts: letters, digits, _ and
// -, at most 64 of them.
func wireName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() == maxToolName {
			break
		}
	}
	return b.String()
}

// exposeNames gives each tool the name the model sees: its own where no
// other server has a tool of that name, else "server_tool". A name still
// taken gets a number.
func exposeNames(tools []Tool) {
	count := map[string]int{}
	for _, t := range tools {
		count[wireName(t.Name)]++
	}
	taken := map[string]bool{}
	for i := range tools {
		t := &tools[i]
		name := wireName(t.Name)
		if count[name] > 1 {
			name = wireName(t.Server + "_" + t.Name)
		}
		base := name
		for n := 2; taken[name]; n++ {
			suffix := "_" + strconv.Itoa(n)
			name = base[:min(len(base), maxToolName-len(suffix))] + suffix
		}
		taken[name] = true
		t.Exposed = name
	}
}
