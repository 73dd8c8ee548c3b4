package termsafe

import (
	"strings"
	"testing"
)

// answerText is ~20 KB of clean, answer-like text (ASCII prose, Markdown
// punctuation, code, newlines).
var answerText = strings.Repeat("The function returns an error when the file is missing; wrap it with %w.\n"+
	"```go\nif err != nil {\n\treturn fmt.Errorf(\"open %s: %w\", name, err)\n}\n```\n"+
	"- first item with `code`\n- second item, **bold**\n\n", 100)

// hostileText is ~20 KB of text where every few bytes is a control
// character, an escape sequence, a C1 control, a bidi override or a raw
// invalid byte.
var hostileText = strings.Repeat("a\x1b[2Jb\x1b]52;c;aGk=\x07\r\n\u009b\u202ez\x9b\x00\x7f\r", 20*1024/34)

func BenchmarkSanitizeCleanASCII(b *testing.B) {
	b.SetBytes(int64(len(answerText)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Sanitize(answerText)
	}
}

func BenchmarkSanitizeHostile(b *testing.B) {
	b.SetBytes(int64(len(hostileText)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Sanitize(hostileText)
	}
}

// BenchmarkStreamDeltas feeds the clean answer as 4-byte deltas, the worst
// realistic delta size.
func BenchmarkStreamDeltas(b *testing.B) {
	b.SetBytes(int64(len(answerText)))
	b.ReportAllocs()
	for b.Loop() {
		var st Stream
		for i := 0; i < len(answerText); i += 4 {
			_ = st.Write(answerText[i:min(i+4, len(answerText))])
		}
		_ = st.Flush()
	}
}

func BenchmarkMarkdownClean(b *testing.B) {
	b.SetBytes(int64(len(answerText)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Markdown(answerText)
	}
}

func BenchmarkKeepSGRRendered(b *testing.B) {
	// Typical renderer output: every word wrapped in SGR, a few hyperlinks.
	rendered := strings.Repeat("\x1b[38;5;252mThe \x1b[m\x1b[38;5;252;1mfunction\x1b[m \x1b]8;id=1;https://go.dev\x07go.dev\x1b]8;;\x07 returns\n", 250)
	b.SetBytes(int64(len(rendered)))
	b.ReportAllocs()
	for b.Loop() {
		_ = KeepSGR(rendered)
	}
}
