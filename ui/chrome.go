package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
	"parley/ui/keys"
)

// chrome is the derived part of the screen: the status bar, the key hint
// (or the notice in its place), the start-up banner, the window title and
// the welcome of an empty conversation. Each is redrawn by refreshChrome
// when the key of its inputs changes, never because a handler remembered
// to: handlers change the model, and the screen follows.
type chrome struct {
	status, hint, banner, title, empty string

	statusKey, hintKey, bannerKey, emptyKey string

	// hintParts caches styled hint pieces of style generation hintGen.
	hintParts map[string]string
	hintGen   int
}

// refreshChrome redraws the derived parts whose inputs changed. It runs at
// the end of every Update that may change the screen; comparing the keys
// costs a few hundred nanoseconds.
func (m *Model) refreshChrome() {
	m.refreshStatus()
	m.refreshHint()
	m.refreshBanner()
	m.refreshEmpty()
	m.screen.chrome.title = m.windowTitle()
}

func (m *Model) refreshStatus() {
	w := m.screen.lay.Status.W
	if m.screen.lay.Status.H == 0 {
		m.screen.chrome.status, m.screen.chrome.statusKey = "", ""
		return
	}
	left, right := m.statusSegs()
	var b strings.Builder
	b.WriteString(strconv.Itoa(w))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(m.ctx.StyleGen))
	for _, side := range [][]statusSeg{left, right} {
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
	if key == m.screen.chrome.statusKey {
		return
	}
	m.screen.chrome.statusKey = key
	m.screen.chrome.status = layoutStatus(left, right, w, lookOf(m.ctx.Styles))
}

func (m *Model) refreshHint() {
	w, h := m.screen.lay.Hint.W, m.screen.lay.Hint.H
	if h == 0 {
		m.screen.chrome.hint, m.screen.chrome.hintKey = "", ""
		return
	}
	if n := m.notes.cur; n.text != "" {
		key := "n" + strconv.Itoa(n.gen) + "/" + strconv.Itoa(w) + "x" + strconv.Itoa(h) + "/" + strconv.Itoa(m.ctx.StyleGen)
		if key != m.screen.chrome.hintKey {
			m.screen.chrome.hintKey = key
			m.screen.chrome.hint = renderNotice(m.ctx, n, w, h)
		}
		return
	}
	items := fitHints(m.hintItems(), w)
	key := hintKey(items, w, m.ctx.StyleGen)
	if key == m.screen.chrome.hintKey {
		return
	}
	m.screen.chrome.hintKey = key
	m.screen.chrome.hint = m.renderHint(items, w)
}

func (m *Model) refreshBanner() {
	r := m.screen.lay.Banner
	if r.H == 0 || len(m.notes.banner) == 0 {
		m.screen.chrome.banner, m.screen.chrome.bannerKey = "", ""
		return
	}
	key := strconv.Itoa(r.W) + "x" + strconv.Itoa(r.H) + "/" + strconv.Itoa(m.ctx.StyleGen) + "/" + strconv.Itoa(m.notes.bannerGen) + "/" + noticesHow(m.ctx)
	if key == m.screen.chrome.bannerKey {
		return
	}
	m.screen.chrome.bannerKey = key
	m.screen.chrome.banner = m.renderBanner(r.W, r.H)
}

// renderBanner draws the start-up problems (bad [keys] entries, bad theme
// files, a missing key) at the top until esc or the first send. What does
// not fit stays readable in the notices pane.
func (m *Model) renderBanner(w, h int) string {
	lk := lookOf(m.ctx.Styles)
	body := bannerBody(m.notes.banner, w)
	lines := []string{lk.bannerTitle.Render(cells.Fit(" parley found problems at start (esc dismisses):", w))}
	if len(body) > h-1 {
		more := len(body) - (h - 2)
		body = append(body[:max(h-2, 0)], " … "+itoa(more)+" more "+plural(more, "line", "lines")+": "+noticesHow(m.ctx)+" shows them all")
	}
	for _, l := range body {
		lines = append(lines, lk.banner.Render(cells.Fit(l, w)))
	}
	return strings.Join(lines[:min(len(lines), h)], "\n")
}

// bannerBody is the problems as lines of at most w cells.
func bannerBody(problems []string, w int) []string {
	var lines []string
	for _, p := range problems {
		wrapped := ansi.Wrap(cells.Fold(p), max(w-3, 10), "")
		for i, l := range strings.Split(wrapped, "\n") {
			prefix := "   "
			if i == 0 {
				prefix = " • "
			}
			lines = append(lines, prefix+l)
		}
	}
	return lines
}

// windowTitle is the conversation's title, sanitised (it is the user's
// text, but a title must not carry control characters).
func (m *Model) windowTitle() string {
	if ct := m.conv.Title(); ct != "" {
		return cells.Fold(ct) + " — parley"
	}
	return "parley"
}

func (m *Model) refreshEmpty() {
	r := m.screen.lay.Transcript
	if r.W <= 0 || r.H <= 0 || m.tr.Len() > 0 {
		return
	}
	key := strconv.Itoa(r.W) + "x" + strconv.Itoa(r.H) + "/" + strconv.Itoa(m.ctx.StyleGen) + "/" + keys.Short(m.keyMap().Help) + firstKey(m.keyMap().Send, "enter")
	if key == m.screen.chrome.emptyKey {
		return
	}
	m.screen.chrome.emptyKey = key
	m.screen.chrome.empty = m.renderEmpty(r.W, r.H)
}

// renderEmpty draws the welcome of an empty conversation: a few muted lines
// in the middle of the transcript's area, saying how to start and where the
// keys and commands are (with the keys of the live key map).
func (m *Model) renderEmpty(w, h int) string {
	km := m.keyMap()
	text := []string{
		"Ask anything: type below, " + firstKey(km.Send, "enter") + " sends.",
		"Type / for commands.",
	}
	if hk := keys.Short(km.Help); hk != "" {
		text = append(text, strings.ReplaceAll(hk, "/", " or ")+" shows every key.")
	}
	st := m.ctx.Styles.TurnMeta
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
