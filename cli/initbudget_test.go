package cli

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// initBudgets bound what the initialisation of a package may allocate
// before main runs, in bytes. chroma v2.14.0 as released read its 240
// lexers (2.2 MB) and 64 styles (1.6 MB) there; parley's copy reads them on
// first use (third_party/chroma/PATCHED.md) and leaves 72 KB (the lexers
// written in Go and the XML configs they are built from) and 14 KB (the
// fallback style). The budgets leave room for a Go release's encoding/xml
// to allocate more, and none for either registry.
func initBudgets() map[string]int {
	return map[string]int{
		"github.com/alecthomas/chroma/v2/lexers": 128 << 10,
		"github.com/alecthomas/chroma/v2/styles": 64 << 10,
	}
}

// initLine is one line of GODEBUG=inittrace=1: the package, then its
// clock time, bytes and allocations.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestStartDoesNotReadChromasRegistries runs the real binary's --version
// with Go's initialisation trace and holds chroma's packages to their
// budgets. Bytes allocated are the same on every run, unlike times, so the
// test does not depend on the machine's load.
func TestStartDoesNotReadChromasRegistries(t *testing.T) {
	bin := buildParley(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("parley --version: %v\n%s", err, stderr.String())
	}
	budgets := initBudgets()
	seen := map[string]bool{}
	for line := range strings.Lines(stderr.String()) {
		m := initLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		budget, ok := budgets[m[1]]
		if !ok {
			continue
		}
		seen[m[1]] = true
		bytes, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatalf("trace line %q: %v", line, err)
		}
		if bytes > budget {
			t.Errorf("initialising %s allocates %d bytes in %s allocations before main, over its budget of %d: chroma reads its registries while parley starts again (see third_party/chroma/PATCHED.md)", m[1], bytes, m[3], budget)
		}
	}
	for pkg := range budgets {
		if !seen[pkg] {
			t.Errorf("the initialisation trace names no %s; the binary no longer links it, or the trace's format changed:\n%s", pkg, stderr.String())
		}
	}
}
