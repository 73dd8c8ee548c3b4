package columns

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/glamour/v2/ansi"

	"parley/conversation"
	"parley/internal/bytesize"
	"parley/ui/cells"
	"parley/ui/mdstream"
	"parley/ui/uictx"
)

// MinWidth is the narrowest a column may be: with less room for every
// reply side by side, the replies stack as alternatives, one shown.
const MinWidth = 50

// sep is what stands between two columns.
const sep = " │ "

// headRows are the rows above a column's answer: its model, its
// progress, its reasoning, a rule.
const headRows = 4

// layout is the Markdown style that suits a column: the transcript's
// choices (whole words, URLs and tables) without code numbers, which
// belong to the transcript's copy keys.
var layout = mdstream.Options{FitTables: true, WholeTables: true, WholeURLs: true, PadCode: true, Literal: true, WholeWords: true}

// View is the compare view of one question: see the package comment.
type View struct {
	question string
	cols     []*column
	// focus is the column keys act on (and the one shown when stacked).
	focus int
	// together: scrolling moves every column (else the focused one).
	together bool
	// ren renders every column's Markdown at width renW, style renGen.
	ren    *mdstream.Renderer
	renW   int
	renGen int
	// out is the last drawing, for the key outKey.
	out    string
	outKey drawKey
	gen    int
}

// drawKey is what a drawing depends on besides the replies (gen grows
// with every change of them, of the focus or of the scrolling).
type drawKey struct {
	w, h, styleGen, gen int
}

// New is the view of the replies with these message ids, in column
// order, to question (untrusted, shown on one line).
func New(question string, ids []int) *View {
	v := &View{question: question, together: true}
	for _, id := range ids {
		v.cols = append(v.cols, newColumn(id))
	}
	return v
}

// IDs are the replies' message ids, in column order.
func (v *View) IDs() []int {
	out := make([]int, len(v.cols))
	for i, c := range v.cols {
		out[i] = c.id
	}
	return out
}

// Focus is the index of the focused column.
func (v *View) Focus() int { return v.focus }

// Together reports whether scrolling moves every column.
func (v *View) Together() bool { return v.together }

// Fits reports whether every column fits side by side in w cells.
func Fits(n, w int) bool { return n*MinWidth+(n-1)*len([]rune(sep)) <= w }

// Sync takes the replies as they are now (one per column, in order) and
// renders what changed in their answers, at most a frame's work each:
// the owner calls it once per frame tick, for every column at once.
func (v *View) Sync(ctx *uictx.Context, w int, rs []Reply) {
	cw := v.colWidth(w)
	if v.ren == nil || v.renW != cw || v.renGen != ctx.StyleGen {
		v.ren = newRenderer(cw, ctx.Glamour)
		v.renW, v.renGen = cw, ctx.StyleGen
		for _, c := range v.cols {
			c.dirty = true
		}
	}
	for i, c := range v.cols {
		if i < len(rs) {
			c.sync(rs[i])
		}
		if c.render(v.ren) {
			v.gen++
		}
	}
}

func newRenderer(w int, style ansi.StyleConfig) *mdstream.Renderer {
	r, err := mdstream.NewRendererWith(w, style, layout)
	if err != nil {
		// Only a style that cannot be encoded fails: the text stays.
		r, _ = mdstream.NewRendererWith(w, ansi.StyleConfig{}, layout)
	}
	r.SetFrameBudget(mdstream.FrameBudget)
	return r
}

// shown is how many columns are drawn side by side in w cells: all of
// them, or one (stacked as alternatives).
func (v *View) shown(w int) int {
	if Fits(len(v.cols), w) {
		return len(v.cols)
	}
	return 1
}

// colWidth is the width of a column in w cells.
func (v *View) colWidth(w int) int {
	k := v.shown(w)
	return max((w-(k-1)*len([]rune(sep)))/k, 10)
}

// View draws the replies into exactly w×h cells: a line with the
// question, then the columns (or the focused one, stacked).
func (v *View) View(ctx *uictx.Context, w, h int, rs []Reply) string {
	key := drawKey{w: w, h: h, styleGen: ctx.StyleGen, gen: v.gen}
	if key == v.outKey && v.out != "" && !anyInFlight(rs) {
		return v.out
	}
	st := &ctx.Styles
	rows := make([]string, 0, h)
	rows = append(rows, cells.Fit(st.Muted.Render(cells.Fit("Compare · "+cells.OneLine(v.question), w)), w))
	k := v.shown(w)
	cw := v.colWidth(w)
	bh := max(h-1-headRows, 0)
	var blocks [][]string
	first := 0
	if k == 1 {
		first = v.focus
	}
	for i := first; i < first+k && i < len(v.cols); i++ {
		var r Reply
		if i < len(rs) {
			r = rs[i]
		}
		blocks = append(blocks, v.block(ctx, i, r, cw, bh, k == 1))
	}
	bar := st.Subtle.Render(sep)
	pad := cells.Spaces(max(w-k*cw-(k-1)*len([]rune(sep)), 0))
	for row := 0; row < headRows+bh; row++ {
		var b strings.Builder
		for j, blk := range blocks {
			if j > 0 {
				b.WriteString(bar)
			}
			b.WriteString(blk[row])
		}
		// Every block is exactly cw cells: the row is w with the pad.
		b.WriteString(pad)
		rows = append(rows, b.String())
	}
	v.out = strings.Join(rows[:min(len(rows), h)], "\n")
	v.outKey = key
	return v.out
}

func anyInFlight(rs []Reply) bool {
	for _, r := range rs {
		if r.inFlight() {
			return true
		}
	}
	return false
}

// block is column i as headRows+bh lines of exactly cw cells.
func (v *View) block(ctx *uictx.Context, i int, r Reply, cw, bh int, stacked bool) []string {
	st := &ctx.Styles
	c := v.cols[i]
	out := make([]string, 0, headRows+bh)
	name := strconv.Itoa(i+1) + " · " + cells.OneLine(r.Model)
	if stacked {
		name = fmt.Sprintf("‹ %d/%d › %s", i+1, len(v.cols), cells.OneLine(r.Model))
	}
	head := st.AssistantLabel.Render(name)
	if i == v.focus && !stacked {
		head = st.Accent.Render("▶ " + name)
	}
	out = append(out, cells.Fit(head, cw))
	out = append(out, cells.Fit(progress(ctx, r), cw))
	out = append(out, cells.Fit(thinking(ctx, r), cw))
	rule := "─"
	if i == v.focus && !stacked {
		rule = "━"
	}
	out = append(out, st.Subtle.Render(strings.Repeat(rule, cw)))
	lines := c.fitted(cw)
	if r.Err != "" {
		lines = append(append([]string(nil), lines...), cells.Spaces(cw))
		for _, l := range cells.Wrap(cells.Fold(r.Err), cw) {
			lines = append(lines, cells.Fit(st.ErrorText.Render(l), cw))
		}
	}
	top := c.window(len(lines), bh)
	blankRow := cells.Spaces(cw)
	for j := 0; j < bh; j++ {
		if top+j < len(lines) {
			out = append(out, lines[top+j])
		} else {
			out = append(out, blankRow)
		}
	}
	return out
}

// progress is a column's second row: its state, time, tokens, rate and
// cost.
func progress(ctx *uictx.Context, r Reply) string {
	st := &ctx.Styles
	var parts []string
	var mark string
	switch r.State {
	case conversation.StateStreaming:
		mark = st.Streaming.Render("● streaming")
	case conversation.StateFailed:
		mark = st.Failed.Render("✗ failed")
	case conversation.StateInterrupted:
		mark = st.Interrupted.Render("■ stopped")
	default:
		mark = st.Success.Render("✓ done")
	}
	parts = append(parts, conversation.ThoughtText(r.Elapsed))
	if r.Tokens > 0 {
		parts = append(parts, strconv.Itoa(r.Tokens)+" tok")
	}
	if r.Rate > 0 {
		parts = append(parts, fmt.Sprintf("%.0f tok/s", r.Rate))
	}
	if r.Cost != "" {
		parts = append(parts, r.Cost)
	}
	return mark + " " + st.TurnMeta.Render(strings.Join(parts, " · "))
}

// thinking is a column's third row: its reasoning, folded to one line
// (empty without any).
func thinking(ctx *uictx.Context, r Reply) string {
	if r.Reasoning == "" {
		return ""
	}
	if r.inFlight() && r.Text == "" {
		return ctx.Styles.Muted.Render("Thinking… " + bytesize.Format(int64(len(r.Reasoning))))
	}
	return ctx.Styles.Muted.Render("▸ Thought for " + conversation.ThoughtText(r.Thought))
}
