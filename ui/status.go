package ui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/chat"
	"parley/ui/cells"
)

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// statusSeg is one piece of the status bar. Pieces with a higher drop
// value go first when the bar is too narrow; flex pieces shrink instead.
type statusSeg struct {
	text string
	role statusRole
	drop int
	flex bool
}

// statusRole picks a status piece's style from the look.
type statusRole int

const (
	roleMuted statusRole = iota
	roleModel
	roleTitle
	roleBusy
	roleWarn
	roleErr
)

func (l look) statusStyle(r statusRole) lipgloss.Style {
	switch r {
	case roleModel:
		return l.statusModel
	case roleTitle:
		return l.statusTitle
	case roleBusy:
		return l.statusBusy
	case roleWarn:
		return l.statusWarn
	case roleErr:
		return l.statusErr
	}
	return l.statusMuted
}

// statusSegs lists the pieces of the status bar: model, conversation
// title, the reply's state (spinner, elapsed time, tokens/s, a stall or a
// retry), the last usage, and markers (older messages not sent, the view
// scrolled up, mouse capture, demo).
func (m *Model) statusSegs() (left, right []statusSeg) {
	model := cells.OneLine(m.eng.Model())
	if model == "" {
		model = "no model"
	}
	if m.opts.Demo {
		left = append(left, statusSeg{text: "demo", role: roleWarn})
	}
	left = append(left, statusSeg{text: "● " + model, role: roleModel, drop: 1, flex: true})
	if m.eng.Conv().Role() != "" {
		left = append(left, statusSeg{text: "◆ " + cells.OneLine(m.eng.Conv().Role()), role: roleModel, drop: 2})
	}
	if m.eng.Conv().SystemPrompt() != "" && (m.eng.Conv().Role() == "" || m.opts.ownPromptSet(m.eng.Conv())) {
		// With a role, only a prompt of the conversation's own (/system)
		// is shown: the role's goes with the role's name.
		left = append(left, statusSeg{text: "⚙ system prompt", role: roleMuted, drop: 4})
	}
	if t := m.eng.Conv().Title(); t != "" {
		left = append(left, statusSeg{text: cells.Fold(t), role: roleTitle, drop: 3, flex: true})
	}

	stopKey := firstKey(m.ctx.Keys.Cancel, "esc")
	last := m.eng.Last()
	switch st := m.eng.State(); {
	case m.eng.Reply() != nil:
		right = append(right, replySeg(m.eng.Reply(), m.spin, stopKey))
	case m.eng.Images() != nil:
		right = append(right, imageSeg(m.eng.Images(), m.spin.shown, stopKey))
	case st == chat.Preparing:
		right = append(right, statusSeg{text: waitingFor(m.eng.Waiting()), role: roleBusy})
	case m.comp.editing:
		right = append(right, statusSeg{text: "✎ editing: enter sends it as a new branch", role: roleWarn})
	default:
		// The status follows the last turn of the path, a reply or an
		// image turn.
		switch st {
		case chat.Failed:
			right = append(right, statusSeg{text: "✗ failed", role: roleErr})
		case chat.Cancelled:
			right = append(right, statusSeg{text: "■ stopped", role: roleWarn})
		}
		if last.Usage != nil {
			right = append(right, statusSeg{text: fmt.Sprintf("%s in · %s out tokens", compactInt(last.Usage.PromptTokens), compactInt(last.Usage.CompletionTokens)), role: roleMuted, drop: 2})
		}
		if last.Rate > 0 {
			right = append(right, statusSeg{text: fmt.Sprintf("%.0f tok/s", last.Rate), role: roleMuted, drop: 4})
		}
	}
	if s := spentSeg(m.eng.Conv(), m.eng.Catalog()); s != "" {
		right = append(right, statusSeg{text: s, role: roleMuted, drop: 3})
	}
	if s := m.cmp.status(); s != "" {
		right = append(right, statusSeg{text: s, role: roleWarn, drop: 1})
	}
	if last.Trimmed > 0 {
		right = append(right, statusSeg{text: fmt.Sprintf("✂ %d older not sent", last.Trimmed), role: roleWarn, drop: 2})
	}
	if m.tr.List().Len() > 0 && !m.tr.List().AtBottom() {
		txt := fmt.Sprintf("↑ %d%%", m.tr.List().ScrollPercent())
		if m.tr.List().NewBelow() {
			txt += " · new below"
		}
		right = append(right, statusSeg{text: txt + " · " + keyLabel(firstKey(m.ctx.Keys.ScrollBottom, "end")) + " bottom", role: roleWarn, drop: 3})
	}
	if m.opts.VerboseLog != "" {
		right = append(right, statusSeg{text: "tracing to " + cells.OneLine(filepath.Base(m.opts.VerboseLog)), role: roleMuted, drop: 5})
	}
	if h := m.hist.status(m.ctx); h != "" {
		right = append(right, statusSeg{text: h, role: roleWarn, drop: 4})
	}
	if m.term.mouse {
		right = append(right, statusSeg{text: "🖱", role: roleMuted, drop: 5})
	}
	return left, right
}

// stallAfter is how long a reply may send nothing before the status says
// so (the gateway's idle timeout is much longer).
const stallAfter = 15 * time.Second

// waitingFor is the status of a send that waits.
func waitingFor(w chat.Wait) string {
	switch w {
	case chat.WaitAttachments:
		return "attaching… the message goes once its attachments are read"
	case chat.WaitSession:
		return "opening the session… the message goes once it is open"
	}
	return "connecting…"
}

// replySeg is the status of the reply in flight: spinner and elapsed time,
// then the rate, a stall, or the gateway client's retry.
func replySeg(r *chat.Reply, sp spinner, stopKey string) statusSeg {
	now := sp.shown
	txt := spinnerFrames[sp.frame%len(spinnerFrames)] + " " + formatElapsed(now.Sub(r.Started))
	quiet := now.Sub(r.Last)
	switch {
	case r.Retry != nil:
		wait := max(r.Retry.At.Sub(now), 0).Round(time.Second)
		return statusSeg{text: fmt.Sprintf("%s · %s · retry %d/%d in %d s", txt, r.Retry.Reason, r.Retry.Attempt, r.Retry.Attempts, int(wait.Seconds())), role: roleWarn}
	case quiet >= stallAfter:
		return statusSeg{text: fmt.Sprintf("%s · no data for %d s — %s stops", txt, int(quiet.Seconds()), stopKey), role: roleWarn}
	case !r.First.IsZero():
		if secs := now.Sub(r.First).Seconds(); secs > 0.2 {
			txt += fmt.Sprintf(" · ~%.0f tok/s", float64(r.Chars)/4/secs)
		}
	default:
		txt += " · waiting"
	}
	return statusSeg{text: txt, role: roleBusy}
}

// layoutStatus places left and right pieces on one line of exactly w cells.
func layoutStatus(left, right []statusSeg, w int, lk look) string {
	bar := lk.statusBar
	const sep = "  "
	width := func(segs []statusSeg) int {
		n := 0
		for i, s := range segs {
			if i > 0 {
				n += len(sep)
			}
			n += ansi.StringWidth(s.text)
		}
		return n
	}
	room := w - 2 // one cell of padding each side
	// Drop pieces, highest drop first, until the fixed parts fit.
	for {
		total := width(left) + width(right) + len(sep)
		if total <= room {
			break
		}
		// Shrink flex pieces to a minimum before dropping.
		over := total - room
		shrunk := false
		for i := len(left) - 1; i >= 0 && over > 0; i-- {
			if !left[i].flex {
				continue
			}
			cw := ansi.StringWidth(left[i].text)
			minW := min(cw, 12)
			if i == 0 {
				minW = min(cw, 8)
			}
			if cw > minW {
				cut := min(over, cw-minW)
				left[i].text = ansi.Truncate(left[i].text, cw-cut, "…")
				over -= cut
				shrunk = true
			}
		}
		if over <= 0 {
			continue
		}
		if !dropHighest(&left, &right) {
			if !shrunk {
				break
			}
		}
	}
	render := func(segs []statusSeg) string {
		var b strings.Builder
		for i, s := range segs {
			if i > 0 {
				b.WriteString(bar.Render(sep))
			}
			b.WriteString(lk.statusStyle(s.role).Inherit(bar).Render(s.text))
		}
		return b.String()
	}
	l, r := render(left), render(right)
	gap := room - ansi.StringWidth(l) - ansi.StringWidth(r)
	line := bar.Render(" ") + l + bar.Render(strings.Repeat(" ", max(gap, 1))) + r + bar.Render(" ")
	if ansi.StringWidth(line) > w {
		line = ansi.Truncate(line, w, "")
	}
	if pad := w - ansi.StringWidth(line); pad > 0 {
		line += bar.Render(strings.Repeat(" ", pad))
	}
	return line
}

// dropHighest removes the piece with the highest drop value (> 0).
func dropHighest(left, right *[]statusSeg) bool {
	best, side, idx := 0, 0, -1
	for i, s := range *left {
		if s.drop > best {
			best, side, idx = s.drop, 0, i
		}
	}
	for i, s := range *right {
		if s.drop > best {
			best, side, idx = s.drop, 1, i
		}
	}
	if idx < 0 {
		return false
	}
	if side == 0 {
		*left = append((*left)[:idx], (*left)[idx+1:]...)
	} else {
		*right = append((*right)[:idx], (*right)[idx+1:]...)
	}
	return true
}

func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// compactInt writes 1234 as "1.2k".
func compactInt(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 100_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

func itoa(n int) string { return strconv.Itoa(n) }
