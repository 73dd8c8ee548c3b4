package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/ui/cells"
)

// toastKind picks a notice's colour and whether it stays.
type toastKind int

const (
	toastInfo toastKind = iota
	toastOK
	toastWarn
	toastErr
)

// notice is one message to the user: shown in place of the key hint,
// wrapped over up to maxNoticeLines lines, and kept in the log the notices
// pane shows.
type notice struct {
	text string
	kind toastKind
	at   time.Time
	gen  int // the notice's number; an expiry for an older one is ignored
}

// notices is what the user was told: the notice shown now, the start-up
// problems of the banner, and the log of both.
type notices struct {
	cur notice
	gen int
	// banner holds the start-up problems until esc or the first send;
	// bannerGen grows when it changes.
	banner    []string
	bannerGen int
	log       []notice
}

// maxNoticeLog bounds the notices kept for the pane.
const maxNoticeLog = 200

type noticeExpiredMsg struct{ gen int }

// sticky reports whether a notice stays until dismissed: warnings and
// errors say what to do, so they stay readable until esc or the next send.
func (k toastKind) sticky() bool { return k == toastWarn || k == toastErr }

func (k toastKind) duration() time.Duration {
	if k == toastOK {
		return 3 * time.Second
	}
	return 5 * time.Second
}

// notify shows a notice in place of the key hint and logs it. Text is
// sanitised: notices carry gateway error messages and model names.
func (m *Model) notify(text string, kind toastKind) tea.Cmd {
	n := notice{text: cells.Fold(text), kind: kind, at: m.now(), gen: m.notes.gen + 1}
	m.notes.gen = n.gen
	m.notes.cur = n
	m.logNotice(n)
	if kind.sticky() {
		return nil
	}
	gen := n.gen
	return tea.Tick(kind.duration(), func(time.Time) tea.Msg { return noticeExpiredMsg{gen: gen} })
}

func (m *Model) logNotice(n notice) {
	if l := len(m.notes.log); l > 0 && m.notes.log[l-1].text == n.text {
		m.notes.log[l-1] = n
		return
	}
	if len(m.notes.log) >= maxNoticeLog {
		m.notes.log = append(m.notes.log[:0], m.notes.log[1:]...)
	}
	m.notes.log = append(m.notes.log, n)
}

// dismissNotice clears the notice shown (it stays in the log).
func (m *Model) dismissNotice() bool {
	if m.notes.cur.text == "" {
		return false
	}
	m.notes.cur = notice{}
	return true
}

// setBanner shows start-up problems at the top and logs them.
func (m *Model) setBanner(problems []string) {
	m.notes.banner = problems
	m.notes.bannerGen++
	for _, p := range problems {
		m.logNotice(notice{text: cells.Fold(p), kind: toastWarn, at: m.now()})
	}
}

func (m *Model) dismissBanner() bool {
	if len(m.notes.banner) == 0 {
		return false
	}
	m.notes.banner = nil
	m.notes.bannerGen++
	return true
}

// noticesHow names the way to open the notices pane.
func (m *Model) noticesHow() string {
	if k := keyOf(m.keyMap().Notices); k != "" {
		return k + " or /notices"
	}
	return "/notices"
}

// noticesKey is the part of a notice's rendering that depends on the key
// map.
func (m *Model) noticesKey() string { return m.noticesHow() }

// noticeLines is how many lines the notice shown needs at width w.
func noticeLines(n notice, w int) int {
	if n.text == "" {
		return 0
	}
	return min(len(wrapNotice(n, w)), maxNoticeLines)
}

// wrapNotice wraps a notice's icon and text to w cells.
func wrapNotice(n notice, w int) []string {
	text := n.kind.icon() + n.text
	if n.kind.sticky() {
		text += "  (esc dismisses)"
	}
	return strings.Split(ansi.Wrap(text, max(w-1, 8), ""), "\n")
}

func (k toastKind) icon() string {
	switch k {
	case toastOK:
		return "✓ "
	case toastWarn:
		return "! "
	case toastErr:
		return "✗ "
	}
	return "• "
}

// renderNotice draws the notice over h lines of w cells; a notice longer
// than that ends with the way to read it whole.
func (m *Model) renderNotice(n notice, w, h int) string {
	lk := m.look()
	st := lk.toastInfo
	switch n.kind {
	case toastOK:
		st = lk.toastOK
	case toastWarn:
		st = lk.toastWarn
	case toastErr:
		st = lk.toastErr
	}
	lines := wrapNotice(n, w-st.GetHorizontalFrameSize())
	if len(lines) > h {
		lines = lines[:h]
		lines[h-1] = cells.Truncate(lines[h-1], max(w-st.GetHorizontalFrameSize()-22, 4)) + " " + m.noticesHow() + " shows all"
	}
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = cells.Fit(st.Render(cells.Fit(" "+l, w-st.GetHorizontalFrameSize())), w)
	}
	return strings.Join(out, "\n")
}
