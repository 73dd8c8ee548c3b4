package mdstream

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/glamour/v2/ansi"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"parley/themes"
)

// firstUseChild marks the process TestConcurrentFirstHighlight starts: a
// fresh one, in which chroma has read none of its lexers and styles yet.
const firstUseChild = "PARLEY_CHROMA_FIRST_USE_CHILD"

// TestConcurrentFirstHighlight is chroma's first use from several
// goroutines at once, in a process of its own (a test process has usually
// highlighted code long before): renders with a parley theme and with
// glamour's dark style, and direct lookups of lexers and embedded styles,
// all racing to make chroma read its registries. Every render must give the
// golden bytes, and the race detector (under -race) must find nothing.
func TestConcurrentFirstHighlight(t *testing.T) {
	if os.Getenv(firstUseChild) == "1" {
		concurrentFirstHighlight(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestConcurrentFirstHighlight$", "-test.count=1", "-test.v", "-test.timeout=150s")
	cmd.Env = append(os.Environ(), firstUseChild+"=1", "GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child process failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestConcurrentFirstHighlight") {
		t.Fatalf("the child process did not run the test:\n%s", out)
	}
}

func concurrentFirstHighlight(t *testing.T) {
	// Nothing has looked a lexer or a style up yet: only the lexers written
	// in Go are registered (chroma v2.14.0 as released had all 255 from the
	// start) and no style is (it had its 64).
	if n := len(lexers.GlobalLexerRegistry.Lexers); n > 40 {
		t.Fatalf("%d lexers were read before the first lookup; chroma must read its embedded lexers at the first one", n)
	}
	if n := len(chromastyles.Registry); n != 0 {
		t.Fatalf("%d styles are registered before any was; chroma must keep its embedded styles apart and read them at the first lookup", n)
	}

	styles := map[string]ansi.StyleConfig{
		// Glamour registers the theme's chroma style here, before any
		// render, as the chat does when it builds its theme set.
		"parley-dark":  themes.Builtins()[0].Glamour(false),
		"glamour-dark": testStyles()["dark"],
	}
	want := map[string]string{}
	for name := range styles {
		b, err := os.ReadFile(filepath.Join("testdata", "TestHighlightingIsUnchanged", name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		want[name] = string(b)
	}

	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 3 {
		for name, style := range styles {
			wg.Go(func() {
				<-start
				r, err := NewRenderer(72, style)
				if err != nil {
					errs <- err.Error()
					return
				}
				r.SetBudget(0, nil) // a loaded machine must not turn the render plain
				if got := strings.Join(r.Render(highlightDoc), "\n"); got != want[name] {
					errs <- name + " render " + itoa(i) + " differs from its golden file:\n" + got
				}
			})
		}
	}
	wg.Go(func() {
		<-start
		if l := lexers.Get("py"); l == nil || l.Config().Name != "Python" {
			errs <- "lexers.Get(\"py\") did not find Python"
		}
		if l := lexers.Analyse("@ IN SOA ns.example.com. admin.example.com. (1 2 3 4 5)\n"); l == nil || l.Config().Name != "dns" {
			errs <- "lexers.Analyse did not pick dns for a zone file"
		}
		if l := lexers.Analyse("SELECT `a`, `b` FROM `c` WHERE `d` = 1;\n"); l == nil || l.Config().Name != "MySQL" {
			errs <- "lexers.Analyse did not pick MySQL for names between backticks"
		}
	})
	wg.Go(func() {
		<-start
		if s := chromastyles.Get("monokai"); s == nil || s.Name != "monokai" {
			errs <- "styles.Get(\"monokai\") did not find the embedded style"
		}
		if names := chromastyles.Names(); len(names) < 64 {
			errs <- "styles.Names() lists " + itoa(len(names)) + " styles; want the 64 embedded ones and those registered"
		}
	})
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestWarmReadsTheLexersAndCompilesThePatterns: Warm, in a fresh process,
// leaves chroma with every lexer read and goldmark with its patterns
// compiled, so the first reply with a code block, a link or a table finds
// them ready: a parse of the sample after Warm allocates at least 200 KB
// less than the first parse of a fresh process does (500 KB and 39 KB
// here; 621–696 KB and 113–239 KB with the race detector).
func TestWarmReadsTheLexersAndCompilesThePatterns(t *testing.T) {
	const name = "TestWarmReadsTheLexersAndCompilesThePatterns"
	switch os.Getenv(firstUseChild) {
	case "cold":
		t.Logf("parse allocated %d bytes", parseAllocs())
		return
	case "warm":
		before := len(lexers.GlobalLexerRegistry.Lexers)
		Warm()
		if after := len(lexers.GlobalLexerRegistry.Lexers); before > 40 || after < 200 {
			t.Fatalf("%d lexers before Warm and %d after; want a few, then all", before, after)
		}
		t.Logf("parse allocated %d bytes", parseAllocs())
		return
	}
	allocated := map[string]int{}
	for _, child := range []string{"cold", "warm"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+name+"$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), firstUseChild+"="+child, "GORACE=atexit_sleep_ms=0")
		out, err := cmd.CombinedOutput()
		cancel()
		m := regexp.MustCompile(`parse allocated (\d+) bytes`).FindSubmatch(out)
		if err != nil || m == nil || !strings.Contains(string(out), "--- PASS: "+name) {
			t.Fatalf("the %s child process: %v\n%s", child, err, out)
		}
		allocated[child], _ = strconv.Atoi(string(m[1]))
	}
	// Compiling the patterns allocates about 450 KB; what else a parse
	// allocates varies, with the race detector most.
	if allocated["cold"]-allocated["warm"] < 200<<10 {
		t.Errorf("a parse after Warm allocated %d bytes, the first parse of a fresh process %d: Warm did not compile goldmark's patterns", allocated["warm"], allocated["cold"])
	}
}

// parseAllocs is how many bytes one parse of warmSample allocates.
func parseAllocs() uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	md.Parser().Parse(text.NewReader([]byte(warmSample)))
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
