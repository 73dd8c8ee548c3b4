package cli

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// TestAskHostileMarkdown: the replies that froze the chat's Markdown
// renderer (issue 7) pass through `parley ask` in bounded time and
// allocation, as text: ask prints replies unrendered, made inert by the
// sanitiser, whose cost is linear in the text.
func TestAskHostileMarkdown(t *testing.T) {
	var list strings.Builder
	for i := range 400 {
		list.WriteString(strings.Repeat("  ", i) + "- level\n")
	}
	for name, text := range map[string]string{
		"quotes":   strings.Repeat(">", 100) + " deep quote",
		"lists":    list.String(),
		"fences":   strings.Repeat("```\n", 4000),
		"stars":    strings.Repeat("*", 40<<10),
		"controls": strings.Repeat("> ", 80) + "\x1b]52;c;ZXZpbA==\x07 text",
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: 64})
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			start := time.Now()
			r := h.run(nil, "ask", "-m", "gpt-4o", "q")
			took := time.Since(start)
			runtime.ReadMemStats(&m1)
			r.mustCode(t, 0)
			// The fake gateway, the SSE reader and the sanitiser together:
			// a few times the text, not the gigabytes a renderer took.
			if alloc := m1.TotalAlloc - m0.TotalAlloc; took > 20*time.Second || alloc > 200<<20 {
				t.Fatalf("took %v and %d MB", took, alloc>>20)
			}
			want := strings.TrimRight(text, "\n") + "\n"
			if name == "controls" {
				want = strings.Repeat("> ", 80) + "␛]52;c;ZXZpbA==␇ text\n"
			}
			if r.stdout != want {
				t.Fatalf("stdout is not the reply as text: %d bytes, want %d", len(r.stdout), len(want))
			}
		})
	}
}
