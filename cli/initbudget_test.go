package cli

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// initBudgets bound what the initialisation of a package may allocate
// before main runs, in bytes, for the packages whose work parley's patched
// copies (third_party/*/PATCHED.md) leave to the first use. As released,
// chroma read its 240 lexers (2.2 MB) and 64 styles (1.6 MB) there,
// goldmark compiled its patterns and built its case-folding table (extension
// 266 KB, util 146 KB, parser 110 KB) and glamour's autolink compiled its
// GitHub patterns (144 KB); the copies leave 22 KB (chroma's lexers written
// in Go, with their configs written in Go too: parsing the five XML
// configs they were built from took 50 KB more), 14 KB (chroma's fallback
// style), 15 KB, 0.1 KB, 4 KB and 0.1 KB. The budgets leave room for a Go
// release to allocate more, and none for the work moved.
func initBudgets() map[string]int {
	return map[string]int{
		"github.com/alecthomas/chroma/v2/lexers":  40 << 10,
		"github.com/alecthomas/chroma/v2/styles":  64 << 10,
		"github.com/yuin/goldmark/extension":      48 << 10,
		"github.com/yuin/goldmark/util":           16 << 10,
		"github.com/yuin/goldmark/parser":         32 << 10,
		"charm.land/glamour/v2/internal/autolink": 16 << 10,
	}
}

// initLine is one line of GODEBUG=inittrace=1: the package, then its
// clock time, bytes and allocations.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// initTrace runs the real binary's --version with Go's initialisation
// trace and returns its lines, in the order the packages were initialised.
func initTrace(t *testing.T) (lines [][]string, trace string) {
	t.Helper()
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
	for line := range strings.Lines(stderr.String()) {
		if m := initLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			lines = append(lines, m)
		}
	}
	return lines, stderr.String()
}

// TestStartLeavesFirstUseWorkAlone holds the packages of initBudgets to
// their budgets in the real binary's initialisation trace. Bytes allocated
// are the same on every run, unlike times, so the test does not depend on
// the machine's load.
func TestStartLeavesFirstUseWorkAlone(t *testing.T) {
	lines, trace := initTrace(t)
	budgets := initBudgets()
	seen := map[string]bool{}
	for _, m := range lines {
		budget, ok := budgets[m[1]]
		if !ok {
			continue
		}
		seen[m[1]] = true
		bytes, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatalf("trace line %q: %v", m[0], err)
		}
		if bytes > budget {
			t.Errorf("initialising %s allocates %d bytes in %s allocations before main, over its budget of %d: it does again while parley starts what parley's copy leaves to the first use (see the module's third_party/*/PATCHED.md)", m[1], bytes, m[3], budget)
		}
	}
	for pkg := range budgets {
		if !seen[pkg] {
			t.Errorf("the initialisation trace names no %s; the binary no longer links it, or the trace's format changed:\n%s", pkg, trace)
		}
	}
}

// TestHugeheapAdvisesBeforeTheHeavyInitialisers: internal/hugeheap's init
// asks for huge pages before most of the start's allocations, which only
// holds while it runs among the first packages; an import of package
// strings, x/sys/unix or internal/safefile put it about the 100th, after
// encoding/gob (internal/hugeheap/hugeheap_linux.go).
func TestHugeheapAdvisesBeforeTheHeavyInitialisers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("internal/hugeheap does its work on Linux only")
	}
	lines, trace := initTrace(t)
	at := map[string]int{}
	for i, m := range lines {
		at[m[1]] = i + 1
	}
	hh, gob := at["parley/internal/hugeheap"], at["encoding/gob"]
	if hh == 0 || gob == 0 {
		t.Fatalf("the initialisation trace names no internal/hugeheap or encoding/gob:\n%s", trace)
	}
	if hh > gob || hh > len(lines)/5 {
		t.Errorf("internal/hugeheap is initialised as package %d of %d and encoding/gob as package %d: it should come in the first fifth, before gob; look for a new import of it that is initialised late", hh, len(lines), gob)
	}
}
