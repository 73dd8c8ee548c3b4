package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// Colour profile: lipgloss v2 and glamour v2 write full 24-bit SGR
// whatever the terminal (Bubble Tea's renderer downsamples at output), so
// the lines under test do not depend on the environment.

func themeNamed(name string) themes.Theme {
	for _, th := range themes.Builtins() {
		if th.Name == name {
			return th
		}
	}
	panic("no built-in theme " + name)
}

// testContext returns a UI context with the built-in dark theme and the
// default key map.
func testContext(w, h int) *uictx.Context {
	th := themeNamed("dark")
	return &uictx.Context{
		Width: w, Height: h,
		Theme:    th,
		Styles:   th.Styles(false),
		Glamour:  th.Glamour(false),
		StyleGen: 1,
		Keys:     keys.Default(),
	}
}

// noColorContext is testContext with NO_COLOR honoured: no colours, and
// no code highlighting (cheaper, which the long comparisons need under -race).
func noColorContext(w, h int) *uictx.Context {
	ctx := testContext(w, h)
	ctx.NoColor = true
	ctx.Styles, ctx.Glamour = ctx.Theme.Styles(true), ctx.Theme.Glamour(true)
	return ctx
}

// restyleContext switches ctx to another built-in theme, as the root does.
func restyleContext(ctx *uictx.Context, name string) {
	th := themeNamed(name)
	ctx.Theme, ctx.Styles, ctx.Glamour = th, th.Styles(ctx.NoColor), th.Glamour(ctx.NoColor)
	ctx.StyleGen++
}

func newTest(t testing.TB, w, h int) *Transcript {
	t.Helper()
	tr := New(testContext(w, h))
	tr.SetSize(w, h)
	return tr
}

func randFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }

func stripTrim(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// settle runs the frame loop as the root does (Tick, run the command it
// returns, hand the result to HandleMsg), with each background render run
// at once and without the pause between jobs, until nothing is left. It
// returns the number of ticks.
func settle(tb testing.TB, tr *Transcript) int {
	tb.Helper()
	for n := 0; ; n++ {
		if n > 100000 {
			tb.Fatal("the transcript never settles")
		}
		tr.jobs.next = time.Time{}
		if cmd := tr.Tick(); cmd != nil {
			if !tr.HandleMsg(cmd()) {
				tb.Fatal("HandleMsg did not take the result of the transcript's own job")
			}
			continue
		}
		if !tr.NeedsTick() {
			return n + 1
		}
	}
}

// refRender renders text as the transcript's engine does, with no frame
// budget (under -race a render can take longer than a frame): the
// reference the transcript's lines must match.
func refRender(tr *Transcript, text string) []string {
	r := tr.c.engine().r.Clone()
	return trimBlank(r.Render(text))
}

// tickRun is one frame's Tick with the background render it starts run at
// once, on this goroutine (its CPU counts).
func tickRun(tr *Transcript) {
	if cmd := tr.Tick(); cmd != nil {
		tr.HandleMsg(cmd())
	}
}

// renderAll renders every message (and runs the background renders that
// leaves): the lazy renderer keeps only the messages near the window fresh,
// and drops renderings far from it, and tests that compare whole
// transcripts want all of them.
func renderAll(tb testing.TB, tr *Transcript) {
	tb.Helper()
	settle(tb, tr)
	for i, it := range tr.list.items {
		if !tr.r.fresh(it) {
			tr.list.render(i)
		}
	}
	for n := 0; tr.jobs.pending > 0 || tr.jobs.inflight != nil; n++ {
		if n > 100000 {
			tb.Fatal("the background renders never end")
		}
		tr.list.lazy = false // no eviction: everything stays rendered
		tr.jobs.next = time.Time{}
		if cmd := tr.Tick(); cmd != nil {
			tr.HandleMsg(cmd())
		}
	}
}

// patient gives tr's renders on the Update goroutine a budget no loaded
// machine reaches: for tests of what is shown, not of how long a render
// may take (a render past its budget shows its plain text on purpose).
func patient(tr *Transcript) *Transcript {
	tr.c.syncBudget = time.Minute
	tr.c.eng = nil
	return tr
}
