package tomlnest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func nested(open, close string, n int) string {
	return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name      string
		src       string
		line, col int // 0 = accepted
	}{
		{"flat config", "a = 1\n[[providers]]\nname = \"x\"\nheaders = { \"X-A\" = \"b\" }\nsizes = [\"1x1\", [\"2x2\"]]\n", 0, 0},
		{"arrays at the limit", "a = " + nested("[", "]", MaxDepth) + "\n", 0, 0},
		{"arrays past the limit", "# top\na = " + nested("[", "]", MaxDepth+1) + "\n", 2, 5 + MaxDepth},
		{"inline tables past the limit", "\n\nx = " + strings.Repeat("{a=", MaxDepth+5) + "1" + strings.Repeat("}", MaxDepth+5), 3, 5 + 3*MaxDepth},
		{"brackets in strings", "a = \"" + strings.Repeat("[{", 100) + "\"\nb = '" + strings.Repeat("[", 100) + "'\n", 0, 0},
		{"brackets in comments", "a = 1 # " + strings.Repeat("[", 100) + "\n", 0, 0},
		{"escaped quote", `a = "\"` + strings.Repeat("[", 100) + `"` + "\n", 0, 0},
		{"multi-line basic", "a = \"\"\"\n" + strings.Repeat("[", 100) + "\n\"\"\"\nb = " + nested("[", "]", MaxDepth+1), 4, 5 + MaxDepth},
		{"multi-line literal", "a = '''\n" + strings.Repeat("{", 100) + "\n'''\nb = " + nested("{", "}", MaxDepth+1), 4, 5 + MaxDepth},
		{"line-ending backslash", "a = \"\"\"x\\\n" + strings.Repeat("[", 50) + "\"\"\"\nb = " + nested("[", "]", MaxDepth+1), 3, 5 + MaxDepth},
		{"quotes closing a multi-line string", "a = \"\"\"x\"\"\"\"\"\nb = " + nested("[", "]", MaxDepth+1), 2, 5 + MaxDepth},
		{"unterminated string ends at its line", "a = \"[[[\n" + "b = " + nested("[", "]", MaxDepth+1), 2, 5 + MaxDepth},
		{"stray closers", strings.Repeat("]}", 100) + "\na = " + nested("[", "]", MaxDepth), 0, 0},
	}
	for _, tc := range cases {
		err := Check(tc.src, MaxDepth)
		var ne *Error
		switch {
		case tc.line == 0 && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.line != 0 && !errors.As(err, &ne):
			t.Errorf("%s: accepted", tc.name)
		case tc.line != 0 && (ne.Line != tc.line || ne.Col != tc.col):
			t.Errorf("%s: at %d:%d, want %d:%d", tc.name, ne.Line, ne.Col, tc.line, tc.col)
		}
	}
}

// TestCheckKeepsTheDecoderFast: what Check lets through decodes quickly,
// and what it refuses is the input that would not.
func TestCheckKeepsTheDecoderFast(t *testing.T) {
	deepest := "x = " + strings.Repeat("{a=", MaxDepth) + "1" + strings.Repeat("}", MaxDepth) + "\n"
	if err := Check(deepest, MaxDepth); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var v map[string]any
	if _, err := toml.Decode(deepest, &v); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("decoding %d levels took %v", MaxDepth, took)
	}
	bomb := "x = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000)
	start = time.Now()
	if err := Check(bomb, MaxDepth); err == nil {
		t.Fatal("a 5000-level bomb was accepted")
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Fatalf("Check took %v", took)
	}
}

func TestErrorMessage(t *testing.T) {
	err := Check("a = "+nested("[", "]", 40), MaxDepth)
	if msg := err.Error(); !strings.Contains(msg, "more than 8 levels") || !strings.Contains(msg, "flatten") {
		t.Fatalf("message %q", msg)
	}
}
