package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/ui/cells"
	"parley/ui/sidepane"
	"parley/ui/uictx"
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
// wrapped over as many lines as it takes up to a third of the screen
// (the layout's bound), and kept in the log the notices
// pane shows.
type notice struct {
	text string
	kind toastKind
	at   time.Time
	gen  int // the notice's number; an expiry for an older one is ignored
}

// notices is what the user was told: the notice shown now, the start-up
// problems of the banner, and the log of both. It owns its messages
// (noticeExpiredMsg); the root only asks it to show or dismiss.
type notices struct {
	// now is the chat's clock: a notice is stamped when it is shown.
	now func() time.Time
	cur notice
	gen int
	// banner holds the start-up problems until esc or the first send;
	// bannerGen grows when it changes.
	banner    []string
	bannerGen int
	// log is every notice of the run, oldest first, as the notices pane
	// reads it.
	log []sidepane.Notice
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

// show makes text the notice shown in place of the key hint and logs it.
// Text is sanitised: notices carry gateway error messages and model names.
// A notice that goes by itself returns the tick that expires it.
func (ns *notices) show(text string, kind toastKind) tea.Cmd {
	n := notice{text: cells.Fold(text), kind: kind, at: ns.now(), gen: ns.gen + 1}
	ns.gen = n.gen
	ns.cur = n
	ns.add(n)
	if kind.sticky() {
		return nil
	}
	gen := n.gen
	return tea.Tick(kind.duration(), func(time.Time) tea.Msg { return noticeExpiredMsg{gen: gen} })
}

// record logs text for the notices pane without showing it: what a
// dialog already says in its own rows.
func (ns *notices) record(text string, kind toastKind) {
	ns.gen++
	ns.add(notice{text: cells.Fold(text), kind: kind, at: ns.now(), gen: ns.gen})
}

// shownSince is the kind of the notice shown now, when it was shown after
// the notice numbered gen (ns.gen before a step): ok is false when the
// step showed none, or it is gone already.
func (ns *notices) shownSince(gen int) (kind toastKind, ok bool) {
	return ns.cur.kind, ns.cur.gen > gen
}

// expired dismisses the notice shown when it is the one that expired.
func (ns *notices) expired(msg noticeExpiredMsg) {
	if msg.gen == ns.cur.gen {
		ns.dismiss()
	}
}

// add logs a notice; the same text twice in a row is logged once.
func (ns *notices) add(n notice) {
	logged := sidepane.Notice{Text: n.text, Icon: n.kind.icon(), At: n.at, Gen: n.gen}
	if l := len(ns.log); l > 0 && ns.log[l-1].Text == n.text {
		ns.log[l-1] = logged
		return
	}
	if len(ns.log) >= maxNoticeLog {
		ns.log = append(ns.log[:0], ns.log[1:]...)
	}
	ns.log = append(ns.log, logged)
}

// dismiss clears the notice shown (it stays in the log).
func (ns *notices) dismiss() bool {
	if ns.cur.text == "" {
		return false
	}
	ns.cur = notice{}
	return true
}

// setBanner shows start-up problems at the top and logs them.
func (ns *notices) setBanner(problems []string, now time.Time) {
	ns.banner = problems
	ns.bannerGen++
	for _, p := range problems {
		ns.add(notice{text: cells.Fold(p), kind: toastWarn, at: now})
	}
}

func (ns *notices) dismissBanner() bool {
	if len(ns.banner) == 0 {
		return false
	}
	ns.banner = nil
	ns.bannerGen++
	return true
}

// worded is a command's message that words its own outcome (a copy, an
// export, a saved file): the root says it.
type worded interface {
	notice() noticeResult
}

func (msg noticeMsg) notice() noticeResult { return noticeResult(msg) }

// refusedLine is the command line a command that ran off Update gives
// back to the composer when it failed (an export): "" for any other
// result.
func refusedLine(msg worded) string {
	if r, ok := msg.(interface{ refusedLine() string }); ok {
		return r.refusedLine()
	}
	return ""
}

func (msg copiedMsg) notice() noticeResult {
	text, kind := copiedToast(msg)
	return noticeResult{text, kind}
}

// say shows a notice a component or a step worded (nothing when it is
// empty).
func (ns *notices) say(n noticeResult) tea.Cmd {
	if n.text == "" {
		return nil
	}
	return ns.show(n.text, n.kind)
}

// copied is the command of a copy, or the notice saying why there was
// nothing to copy.
func (ns *notices) copied(cmd tea.Cmd, why string) tea.Cmd {
	if why != "" {
		return ns.show(why, toastInfo)
	}
	return cmd
}

// noticesHow names the way to open the notices pane.
func noticesHow(ctx *uictx.Context) string {
	if k := keyOf(ctx.Keys.Notices); k != "" {
		return k + " or /notices"
	}
	return "/notices"
}

// noticeLines is how many lines the notice shown needs on a screen w
// cells wide, measured as renderNotice wraps it (inside the notice's
// frame), so a notice that fits in two lines is given two. The layout
// bounds it (a third of the screen).
func noticeLines(ctx *uictx.Context, n notice, w int) int {
	if n.text == "" {
		return 0
	}
	inner := w - noticeStyle(ctx, n.kind).GetHorizontalFrameSize()
	return len(wrapNotice(ctx, n, inner))
}

// noticeStyle is the style of a notice of kind k.
func noticeStyle(ctx *uictx.Context, k toastKind) lipgloss.Style {
	lk := lookOf(&ctx.Styles)
	switch k {
	case toastOK:
		return lk.toastOK
	case toastWarn:
		return lk.toastWarn
	case toastErr:
		return lk.toastErr
	}
	return lk.toastInfo
}

// wrapNotice wraps a notice's icon and text to w cells (the frame's
// inside, less the leading space).
func wrapNotice(ctx *uictx.Context, n notice, w int) []string {
	return cells.WrapLines(noticeText(ctx, n), max(w-1, 8))
}

// noticeText is what a notice says: its icon, its text, and how a notice
// that stays is dismissed.
func noticeText(ctx *uictx.Context, n notice) string {
	text := n.kind.icon() + n.text
	if n.kind.sticky() {
		text += "  (" + dismissKey(ctx) + " dismisses)"
	}
	return text
}

// dismissKey is the key that dismisses the banner and a notice that
// stays: the cancel key of the live map, which [keys] may have moved off
// esc (and never leaves without a key).
func dismissKey(ctx *uictx.Context) string {
	return keyLabel(firstKey(ctx.Keys.Cancel, "esc"))
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
// than that ends, after its first whole lines, with the way to read it
// whole, itself never cut.
func renderNotice(ctx *uictx.Context, n notice, w, h int) string {
	st := noticeStyle(ctx, n.kind)
	inner := w - st.GetHorizontalFrameSize()
	lines := cells.WrapWithin(noticeText(ctx, n), max(inner-1, 8), h, noticesHow(ctx)+" shows all")
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = cells.Fit(st.Render(cells.Fit(" "+l, inner)), w)
	}
	return strings.Join(out, "\n")
}
