package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// chrome is the derived part of the screen: the status bar, the key hint
// (or the notice in its place), the start-up banner, the window title and
// the welcome of an empty conversation. Each is redrawn by refresh when
// the key of its inputs changes, never because a handler remembered to:
// handlers change the model, and the screen follows.
type chrome struct {
	status, hint, banner, title, empty string

	statusKey, hintKey, bannerKey, emptyKey string

	// hintParts caches styled hint pieces of style generation hintGen.
	hintParts map[string]string
	hintGen   int
}

// chromeInput is everything the chrome is drawn from, gathered by the root
// in one place (Model.chromeInput).
type chromeInput struct {
	ctx         *uictx.Context
	lay         layout
	left, right []statusSeg
	hints       []uictx.Hint
	notice      notice
	banner      []string
	bannerGen   int
	title       string
	// emptyConv: the conversation has no message yet (the welcome shows).
	emptyConv bool
}

// refresh redraws the derived parts whose inputs changed. It runs at the
// end of every Update; comparing the keys costs a few hundred nanoseconds.
func (c *chrome) refresh(in chromeInput) {
	c.refreshStatus(in)
	c.refreshHint(in)
	c.refreshBanner(in)
	c.refreshEmpty(in)
	c.title = "parley"
	if in.title != "" {
		// The title is the user's text, but a window title must not carry
		// control characters.
		c.title = cells.Fold(in.title) + " — parley"
	}
}

func (c *chrome) refreshStatus(in chromeInput) {
	w := in.lay.Status.W
	if in.lay.Status.H == 0 {
		c.status, c.statusKey = "", ""
		return
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(w))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(in.ctx.StyleGen))
	for _, side := range [][]statusSeg{in.left, in.right} {
		b.WriteByte(2)
		for _, s := range side {
			b.WriteByte(0)
			b.WriteString(s.text)
			b.WriteByte(byte('a' + s.role))
			b.WriteByte(byte('a' + s.drop))
			if s.flex {
				b.WriteByte('f')
			}
		}
	}
	key := b.String()
	if key == c.statusKey {
		return
	}
	c.statusKey = key
	c.status = layoutStatus(in.left, in.right, w, lookOf(&in.ctx.Styles))
}

func (c *chrome) refreshHint(in chromeInput) {
	w, h := in.lay.Hint.W, in.lay.Hint.H
	if h == 0 {
		c.hint, c.hintKey = "", ""
		return
	}
	if n := in.notice; n.text != "" {
		key := "n" + strconv.Itoa(n.gen) + "/" + strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + strconv.Itoa(in.ctx.StyleGen) + "/" + noticesHow(in.ctx) + "/" + dismissKey(in.ctx)
		if key != c.hintKey {
			c.hintKey = key
			c.hint = renderNotice(in.ctx, n, w, h)
		}
		return
	}
	items := fitHints(in.hints, w)
	key := hintKey(items, w, in.ctx.StyleGen)
	if key == c.hintKey {
		return
	}
	c.hintKey = key
	c.hint = c.renderHint(in.ctx, items, w)
}

func (c *chrome) refreshBanner(in chromeInput) {
	r := in.lay.Banner
	if r.H == 0 || len(in.banner) == 0 {
		c.banner, c.bannerKey = "", ""
		return
	}
	key := strconv.Itoa(r.W) + "x" + strconv.Itoa(r.H) + "/" + strconv.Itoa(in.ctx.StyleGen) + "/" + strconv.Itoa(in.bannerGen) + "/" + noticesHow(in.ctx) + "/" + dismissKey(in.ctx)
	if key == c.bannerKey {
		return
	}
	c.bannerKey = key
	c.banner = renderBanner(in.ctx, in.banner, r.W, r.H)
}

// renderBanner draws the start-up problems (bad [keys] entries, bad theme
// files, a missing key) at the top until esc or the first send, every
// line wrapped, never cut. What does not fit in h lines stays readable in
// the notices pane, and the last lines say so.
func renderBanner(ctx *uictx.Context, problems []string, w, h int) string {
	lk := lookOf(&ctx.Styles)
	title := bannerTitle(ctx, w)
	body := bannerBody(problems, w)
	if len(title)+len(body) > h {
		room := max(h-len(title), 0)
		tail := bannerTail(ctx, len(body), room, w)
		if len(tail) > h { // a screen this short gets the pointer's gist
			tail = indented(" … ", "more: "+noticesHow(ctx), w)
		}
		body = append(body[:max(room-len(tail), 0)], tail...)
		// The pointer is what says the rest can be read: when it does not
		// fit under the heading, the heading gives way, not the pointer.
		title = title[:min(len(title), max(h-len(tail), 0))]
	}
	var lines []string
	for _, l := range title {
		lines = append(lines, lk.bannerTitle.Render(cells.Fit(l, w)))
	}
	for _, l := range body {
		lines = append(lines, lk.banner.Render(cells.Fit(l, w)))
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// bannerTail is the pointer that ends a banner cut to room lines under
// its heading: "… N more lines: f4 or /notices shows them all", wrapped
// to w. N counts the n body lines that give way to it, so the pointer's
// own length decides N and N's digits may lengthen the pointer: it has
// the fewest lines L for which the pointer counting n-(room-L) fits in L.
func bannerTail(ctx *uictx.Context, n, room, w int) []string {
	for l := 1; ; l++ {
		more := n - max(room-l, 0)
		tail := indented(" … ", itoa(more)+" more "+plural(more, "line", "lines")+": "+noticesHow(ctx)+" shows them all", w)
		if len(tail) <= l {
			return tail
		}
	}
}

// bannerTitle is the banner's heading as lines of at most w cells, with
// the key that really dismisses it.
func bannerTitle(ctx *uictx.Context, w int) []string {
	return indented(" ", "parley found problems at start ("+dismissKey(ctx)+" dismisses):", w)
}

// indented wraps text to w cells after lead, the lines after the first
// under the first's text.
func indented(lead, text string, w int) []string {
	ls := cells.Wrap(text, max(w-cells.Width(lead), 8))
	for i := range ls {
		if i == 0 {
			ls[i] = lead + ls[i]
		} else {
			ls[i] = cells.Spaces(cells.Width(lead)) + ls[i]
		}
	}
	return ls
}

// bannerBody is the problems as lines of at most w cells.
func bannerBody(problems []string, w int) []string {
	var lines []string
	for _, p := range problems {
		for i, l := range cells.WrapLines(cells.Fold(p), max(w-3, 10)) {
			prefix := "   "
			if i == 0 {
				prefix = " • "
			}
			lines = append(lines, prefix+l)
		}
	}
	return lines
}

func (c *chrome) refreshEmpty(in chromeInput) {
	r := in.lay.Transcript
	if r.W <= 0 || r.H <= 0 || !in.emptyConv {
		return
	}
	km := &in.ctx.Keys
	key := strconv.Itoa(r.W) + "x" + strconv.Itoa(r.H) + "/" + strconv.Itoa(in.ctx.StyleGen) + "/" + keys.Short(km.Help) + firstKey(km.Send, "enter")
	if key == c.emptyKey {
		return
	}
	c.emptyKey = key
	c.empty = renderEmpty(in.ctx, r.W, r.H)
}

// renderEmpty draws the welcome of an empty conversation: a few muted lines
// in the middle of the transcript's area, saying how to start and where the
// keys and commands are (with the keys of the live key map).
func renderEmpty(ctx *uictx.Context, w, h int) string {
	km := &ctx.Keys
	text := []string{
		"Ask anything: type below, " + firstKey(km.Send, "enter") + " sends.",
		"Type / for commands.",
	}
	if hk := keys.Short(km.Help); hk != "" {
		text = append(text, strings.ReplaceAll(hk, "/", ", ")+" or /help shows every key.")
	}
	st := ctx.Styles.TurnMeta
	lines := make([]string, h)
	top := max((h-len(text))/2, 0)
	for i := range lines {
		k := i - top
		if k < 0 || k >= len(text) {
			lines[i] = cells.Spaces(w)
			continue
		}
		t := text[k]
		if tw := ansi.StringWidth(t); tw < w {
			t = cells.Spaces((w-tw)/2) + t
		}
		lines[i] = cells.Fit(st.Render(cells.Fit(t, w)), w)
	}
	return strings.Join(lines, "\n")
}

// refreshChrome redraws the derived parts from the model.
func (m *Model) refreshChrome() {
	left, right := m.statusSegs()
	m.screen.chrome.refresh(chromeInput{
		ctx: m.ctx, lay: m.screen.lay, left: left, right: right, hints: m.hintItems(),
		notice: m.notes.cur, banner: m.notes.banner, bannerGen: m.notes.bannerGen,
		title: m.eng.Conv().Title(), emptyConv: m.tr.List().Len() == 0,
	})
}
