package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// Every help text fits 80 columns: a longer line breaks mid-phrase in a
// terminal of 80 (the demo-image line of "parley help demo" was 122). The
// help of every command and topic is read as the user reads it.
func TestHelpFitsEightyColumns(t *testing.T) {
	h := newHarness(t)
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if !sub.Hidden {
				walk(sub, append(append([]string(nil), path...), sub.Name()))
			}
		}
	}
	walk(newApp(Env{}).rootCommand(), nil)
	if len(paths) < 10 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, path := range paths {
		args := append([]string{"help"}, path...)
		r := h.run(nil, args...)
		r.mustCode(t, 0)
		if !strings.Contains(r.stdout, "\n") {
			t.Fatalf("parley %s printed no help: %q", strings.Join(args, " "), r.stdout)
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("parley %s: a line of %d columns:\n%s", strings.Join(args, " "), n, line)
			}
		}
	}
}
