package mdstream

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"parley/themes"
)

// table makes a Markdown table of cols columns and rows rows (besides the
// header), each line after prefix.
func table(prefix string, cols, rows int, cell func(r, c int) string) string {
	var b strings.Builder
	line := func(f func(c int) string) {
		b.WriteString(prefix)
		for c := range cols {
			b.WriteString("| " + f(c) + " ")
		}
		b.WriteString("|\n")
	}
	line(func(c int) string { return fmt.Sprintf("h%d", c) })
	line(func(int) string { return "---" })
	for r := range rows {
		line(func(c int) string { return cell(r, c) })
	}
	return b.String()
}

func shortCell(r, c int) string { return fmt.Sprintf("r%dc%d", r, c) }

// chatRenderer is a renderer with the options the chat uses, in parley's
// dark theme.
func chatRenderer(t testing.TB, width int) *Renderer {
	t.Helper()
	r, err := NewRendererWith(width, themes.Builtins()[0].Glamour(false), chat)
	if err != nil {
		t.Fatal(err)
	}
	r.SetBudget(0, nil)
	return r
}

// squash joins lines with the spaces in each collapsed to one.
func squash(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(out, "\n")
}

// isTable reports whether rendered lines hold a table's header separator.
func isTable(lines []string) bool {
	return strings.Contains(strings.Join(plain(lines), "\n"), "─┼─")
}

// words are the words of s without the table and quote syntax around
// them (a delimiter row's dashes are a rule in a table).
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.NewReplacer("|", " ", "│", " ", "─", " ", "┼", " ", "\\", " ").Replace(s)) {
		if strings.Trim(w, "-:>") != "" {
			out = append(out, w)
		}
	}
	return out
}

// inOrder reports the first word of want not found in got after the one
// before it ("" when all are).
func inOrder(want, got []string) string {
	j := 0
	for i, w := range want {
		for j < len(got) && got[j] != w {
			j++
		}
		if j == len(got) {
			return fmt.Sprintf("word %d of %d, %q", i+1, len(want), w)
		}
		j++
	}
	return ""
}

// TestTableCaps: a table with more columns or cells than the caps is shown
// as its lines of text, every character of it, in order; one at the caps
// is a table; so is everything around a capped one.
func TestTableCaps(t *testing.T) {
	cases := []struct {
		name  string
		md    string
		table bool
	}{
		{"columns at the cap", table("", maxTableCols, 2, func(int, int) string { return "x" }), true},
		{"columns over the cap", table("", maxTableCols+1, 2, shortCell), false},
		{"cells at the cap", table("", 8, maxTableCells/8-1, shortCell), true},
		{"cells over the cap", table("", 8, maxTableCells/8, shortCell), false},
		{"in a quote, over the cap", table("> ", 8, maxTableCells/8, shortCell), false},
		{"a row like a delimiter row", table("", 8, maxTableCells/8, func(r, c int) string {
			if r == 5 {
				return "-"
			}
			return shortCell(r, c)
		}), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			md := "Before the table.\n\n" + tc.md + "\nAfter the table.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
			// glamour's own layout: the caps alone decide.
			r := newTestRenderer(t, 400, "dark")
			r.SetBudget(0, nil)
			lines := r.Render(md)
			text := squash(plain(lines))
			if got := strings.Contains(text, "h0 │ h1"); got != tc.table {
				t.Fatalf("shown as a table: %v, want %v", got, tc.table)
			}
			if !strings.Contains(text, "\na │ b\n") {
				t.Errorf("the small table after it is not a table")
			}
			if missing := fromBag(words(md), words(text)); missing != "" {
				t.Fatalf("not every word is shown: %s", missing)
			}
			if !tc.table && !strings.Contains(text, "| --- | --- |") {
				t.Errorf("the capped table's delimiter row is not shown as text")
			}
		})
	}
}

// TestWholeTables: a table whose header glamour would cut short ("h…") is
// shown as text, every character; one that fits stays a table.
func TestWholeTables(t *testing.T) {
	wide := table("", 14, 3, func(r, c int) string { return fmt.Sprintf("value %d %d with text", r, c) })
	wide = strings.ReplaceAll(wide, "| h", "| header ")
	r := chatRenderer(t, 100)
	text := strings.Join(plain(r.Render(wide)), "\n")
	if strings.Contains(text, "…") || isTable(r.Render(wide)) {
		t.Fatalf("the wide table is still a table with cut headers:\n%s", text)
	}
	if missing := inOrder(words(wide), words(text)); missing != "" {
		t.Fatalf("not every word is shown: %s\n%s", missing, text)
	}
	narrow := table("", 3, 3, shortCell)
	if lines := r.Render(narrow); !isTable(lines) {
		t.Fatalf("a table that fits is not a table:\n%s", strings.Join(plain(lines), "\n"))
	}
	// A header with its own ellipsis is not mistaken for a cut one.
	own := "| wait… | b |\n|---|---|\n| 1 | 2 |\n"
	if lines := r.Render(own); !isTable(lines) {
		t.Fatalf("a header holding … is not a table:\n%s", strings.Join(plain(lines), "\n"))
	}
	// Without the option, glamour's own layout.
	g := newTestRenderer(t, 100, "notty")
	if !strings.Contains(strings.Join(plain(g.Render(wide)), "\n"), "…") {
		t.Errorf("glamour no longer cuts long headers: WholeTables may be unnecessary")
	}
}

// TestMarkdownByteCap: past MaxMarkdownBytes a message shows as plain
// text, every word, a streamed Doc exactly as a whole render.
func TestMarkdownByteCap(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < MaxMarkdownBytes+(64<<10); i++ {
		fmt.Fprintf(&b, "## Part %d\n\nSome *text* with `code` in paragraph %d, and more words after it.\n\n", i, i)
	}
	md := b.String()
	r := chatRenderer(t, 80)
	lines := r.Render(md)
	text := strings.Join(plain(lines), "\n")
	end := markdownEnd([]byte(md))
	if end <= 0 || end > MaxMarkdownBytes || md[end-1] != '\n' {
		t.Fatalf("markdownEnd = %d", end)
	}
	head, rest := md[:end], md[end:]
	before, after, ok := strings.Cut(text, strings.Fields(rest)[2])
	if !ok || strings.Contains(before, "*text*") || !strings.Contains(after, "*text* with `code`") {
		t.Fatalf("the Markdown part is not rendered or the rest is not plain")
	}
	want := append(words(strings.NewReplacer("## ", "", "*", "", "`", "").Replace(head)), words(rest)...)
	if missing := inOrder(want, words(text)); missing != "" {
		t.Fatalf("not every word is shown: %s", missing)
	}
	for _, l := range lines {
		if w := len([]rune(stripped(l))); w > 80 {
			t.Fatalf("a line is %d wide: %q", w, l)
		}
	}

	// Streamed in deltas that cross the limit mid-line, then finished.
	d := &Doc{}
	const delta = 31 << 10 // not a divisor of the limit: one crosses it mid-line
	for i := 0; i < len(md); i += delta {
		d.Append(md[i:min(i+delta, len(md))])
		d.Lines(r)
	}
	if d.Source() != md || d.Len() != len(md) {
		t.Fatalf("the Doc lost text: %d of %d bytes", d.Len(), len(md))
	}
	d.Finish()
	if got := d.Lines(r); strings.Join(got, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("the streamed Doc differs from the whole render: %s", firstDiff(got, lines))
	}
	// At another width the finished Doc renders whole again, the same way.
	r2 := chatRenderer(t, 60)
	if got, want := d.Lines(r2), r2.Render(md); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the finished Doc at a new width differs: %s", firstDiff(got, want))
	}
}

func stripped(l string) string { return plain([]string{l})[0] }

// peakHeap samples the heap (live objects and garbage not yet collected)
// every millisecond while f runs; it returns the most it grew and how long
// f took.
func peakHeap(f func()) (uint64, time.Duration) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	f()
	took := time.Since(start)
	close(stop)
	<-done
	return peak.Load() - min(base, peak.Load()), took
}

// TestHugeTableRenderBounded: a 2 MB table of 50 columns (issue 18 §1: it
// peaked at 1.8 GB in goldmark's table parser) renders in bounded memory
// and time, every cell shown.
func TestHugeTableRenderBounded(t *testing.T) {
	md := table("", 50, 2<<20/(50*9), shortCell)
	limit, heapLimit := 5*time.Second, uint64(120<<20)
	if raceOn {
		limit = 60 * time.Second
	}
	r := chatRenderer(t, 100)
	var lines []string
	peak, took := peakHeap(func() { lines = r.Render(md) })
	t.Logf("%d KB: %v, peak heap +%d MB, %d lines", len(md)>>10, took.Round(time.Millisecond), peak>>20, len(lines))
	if took > limit || peak > heapLimit {
		t.Fatalf("took %v and %d MB (limits %v, %d MB)", took, peak>>20, limit, heapLimit>>20)
	}
	if missing := fromBag(words(md), words(strings.Join(plain(lines), "\n"))); missing != "" {
		t.Fatalf("not every word is shown: %s", missing)
	}
}

// fromBag reports a word of want that got has fewer times ("" when none):
// a table's wrapped cells interleave the words of a row line by line.
func fromBag(want, got []string) string {
	n := make(map[string]int, len(got))
	for _, w := range got {
		n[w]++
	}
	for _, w := range want {
		if n[w] == 0 {
			return fmt.Sprintf("%q", w)
		}
		n[w]--
	}
	return ""
}

// TestTableTailNotRenderedEveryFrame: a table streaming in is rendered
// again only when it has grown by a quarter once past bigTableTail, not on
// every frame.
func TestTableTailNotRenderedEveryFrame(t *testing.T) {
	md := "Intro.\n\n" + table("", 6, 800, shortCell)
	r := chatRenderer(t, 100)
	d := &Doc{}
	frames := 0
	for i := 0; i < len(md); i += 64 {
		d.Append(md[i:min(i+64, len(md))])
		if i%192 == 0 {
			d.Lines(r)
			frames++
		}
	}
	d.Lines(r)
	renders := d.Stats().TailRenders
	// Every frame up to 4 KB (about 21), then a render per quarter of
	// growth (about 11 more to 40 KB).
	t.Logf("%d KB in %d frames: %d renders of the tail", len(md)>>10, frames, renders)
	if renders > 40 {
		t.Fatalf("the table was rendered %d times in %d frames", renders, frames)
	}
	d.Finish()
	if got, want := d.Lines(r), r.Render(md); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the finished table differs from a whole render: %s", firstDiff(got, want))
	}
}

// TestSoftwrap: a line too wide is wrapped at spaces, never leaving
// punctuation alone on a line, with its prefix (indent, quote bars) on the
// continuation lines and its colours open again there; a word wider than
// the line is cut at the width.
func TestSoftwrap(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want []string
	}{
		{"  wraps at the width of the line; really.", 40, []string{"  wraps at the width of the line;", "  really."}},
		{"│ quoted text that goes on .", 20, []string{"│ quoted text that", "│ goes on ."}},
		{"| a | b | c | d |", 15, []string{"| a | b | c |", "d |"}},
		{"    abcdefghijklmnopqrstuvwxyz", 12, []string{"    abcdefgh", "    ijklmnop", "    qrstuvwx", "    yz"}},
		{"\x1b[1mbold words here\x1b[m", 10, []string{"\x1b[1mbold words\x1b[m", "\x1b[1mhere\x1b[m"}},
		{"日本語の文章です", 5, []string{"日本", "語の", "文章", "です"}},
	} {
		got := softwrap(tc.in, tc.w)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("softwrap(%q, %d) =\n%q\nwant\n%q", tc.in, tc.w, got, tc.want)
		}
	}
}

// TestTableCapSparesCode: a table over the caps inside a code block is
// code: shown and copied as written, without a backslash.
func TestTableCapSparesCode(t *testing.T) {
	big := table("", maxTableCols+1, 2, shortCell)
	md := "Here:\n\n```markdown\n" + big + "```\n\nand after it a real one:\n\n" + big
	if got := CodeBlocks(md); len(got) != 1 || got[0] != big {
		t.Fatalf("the code block changed: %q", got)
	}
	r := chatRenderer(t, 400)
	text := strings.Join(plain(r.Render(md)), "\n")
	if strings.Contains(text, "\\") {
		t.Fatalf("a backslash is shown:\n%s", text)
	}
	if n := strings.Count(text, "| h0 | h1 |"); n != 2 {
		t.Fatalf("the table shows %d times as text, want 2 (the code and the capped table):\n%s", n, text)
	}
}
