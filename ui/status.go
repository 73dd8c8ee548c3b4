package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/termsafe"
)

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// statusSeg is one piece of the status bar. Pieces with a higher drop
// value go first when the bar is too narrow; flex pieces shrink instead.
type statusSeg struct {
	text  string
	style lipgloss.Style
	drop  int
	flex  bool
}

// renderStatus rebuilds the cached status bar: model, conversation title,
// the reply's state (spinner, elapsed time, tokens/s), the last usage, and a
// marker when max_history_messages left messages out.
func (m *Model) renderStatus() {
	if m.lay.Status.H == 0 {
		m.statusView = ""
		m.renderTitle()
		return
	}
	lk := m.look()
	var left, right []statusSeg

	model := termsafe.Sanitize(oneLine(m.model))
	if model == "" {
		model = "no model"
	}
	left = append(left, statusSeg{text: "● " + model, style: lk.statusModel, drop: 1, flex: true})
	if t := m.conv.Title(); t != "" {
		left = append(left, statusSeg{text: termsafe.Sanitize(t), style: lk.statusTitle, drop: 3, flex: true})
	}

	switch {
	case m.stream != nil:
		s := m.stream
		elapsed := m.now().Sub(s.started)
		txt := spinnerFrames[s.frame%len(spinnerFrames)] + " " + formatElapsed(elapsed)
		if !s.first.IsZero() {
			if secs := m.now().Sub(s.first).Seconds(); secs > 0.2 {
				txt += fmt.Sprintf(" · ~%.0f tok/s", float64(s.chars)/4/secs)
			}
		} else {
			txt += " · waiting"
		}
		right = append(right, statusSeg{text: txt, style: lk.statusBusy})
	case m.comp.editing:
		right = append(right, statusSeg{text: "✎ editing last message", style: lk.statusWarn})
	default:
		if st, ok := m.lastReplyState(); ok {
			switch st {
			case conversation.StateFailed:
				right = append(right, statusSeg{text: "✗ failed", style: lk.statusErr})
			case conversation.StateInterrupted:
				right = append(right, statusSeg{text: "■ stopped", style: lk.statusWarn})
			}
		}
		if m.lastUsage != nil {
			right = append(right, statusSeg{text: fmt.Sprintf("%s in · %s out tokens", compactInt(m.lastUsage.PromptTokens), compactInt(m.lastUsage.CompletionTokens)), style: lk.statusMuted, drop: 2})
		}
		if m.lastRate > 0 {
			right = append(right, statusSeg{text: fmt.Sprintf("%.0f tok/s", m.lastRate), style: lk.statusMuted, drop: 4})
		}
	}
	if m.trimmed > 0 {
		right = append(right, statusSeg{text: fmt.Sprintf("✂ %d older not sent", m.trimmed), style: lk.statusWarn, drop: 2})
	}
	if m.mouse {
		right = append(right, statusSeg{text: "🖱", style: lk.statusMuted, drop: 5})
	}
	m.statusView = layoutStatus(left, right, m.lay.Status.W, lk.statusBar)
	m.renderTitle()
}

// layoutStatus places left and right pieces on one line of exactly w cells.
func layoutStatus(left, right []statusSeg, w int, bar lipgloss.Style) string {
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
			b.WriteString(s.style.Inherit(bar).Render(s.text))
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

func (m *Model) lastReplyState() (conversation.State, bool) {
	r, ok := m.conv.LastReply()
	if !ok {
		return 0, false
	}
	if u, ok := m.conv.LastUser(); ok && u.ID > r.ID {
		return 0, false
	}
	return r.State, true
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

// oneLine folds whitespace runs (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
