package keys

import (
	"os"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// README's own [keys] example loads without a problem: a reader who copies
// it gets no key-conflict banner.
func TestReadmeKeysExampleLoadsCleanly(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```toml\n[keys]\n")
	if !ok {
		t.Fatal("README has no [keys] example")
	}
	block, _, _ := strings.Cut(rest, "```")
	var overrides map[string][]string
	if _, err := toml.Decode(block, &overrides); err != nil || len(overrides) == 0 {
		t.Fatalf("the example does not decode: %v\n%s", err, block)
	}
	if _, problems := Load(overrides); len(problems) != 0 {
		t.Fatalf("README's [keys] example raises %q", problems)
	}
}
