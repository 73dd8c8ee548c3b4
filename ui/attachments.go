package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/api"
	"parley/internal/bytesize"
	"parley/ui/cells"
	"parley/ui/uictx"
)

// maxChipLines bounds the attachment rows above the composer; more
// attachments are counted on the last row.
const maxChipLines = 3

// addAttachments puts images on the next message, up to attach_max_count
// (the rest are refused, and said so). Attachments a model cannot see are
// kept too, with a word about it: the user may switch models before
// sending.
func (m *Model) addAttachments(atts []api.Attachment) tea.Cmd {
	room := m.opts.maxAttachments() - len(m.comp.attachments)
	var refused int
	if len(atts) > room {
		refused = len(atts) - max(room, 0)
		atts = atts[:max(room, 0)]
	}
	m.comp.setAttachments(append(m.comp.attachments, atts...))
	switch {
	case refused > 0:
		return m.notify(fmt.Sprintf("a message carries at most %d images (attach_max_count); %d more %s not attached", m.opts.maxAttachments(), refused, plural(refused, "was", "were")), toastWarn)
	case len(atts) == 0:
		return nil
	}
	if err := m.catalog.Require(m.model, api.CapVision); err != nil {
		inChat(err)
		return m.notify(err.Error(), toastWarn)
	}
	names := make([]string, len(atts))
	for i, a := range atts {
		names[i] = a.Describe()
	}
	return m.notify("attached "+strings.Join(names, "; "), toastOK)
}

// removeAttachment drops attachment i (the last when i < 0).
func (m *Model) removeAttachment(i int) tea.Cmd {
	n := len(m.comp.attachments)
	if n == 0 {
		return m.notify("there is no attachment to remove", toastInfo)
	}
	if i < 0 || i >= n {
		i = n - 1
	}
	a := m.comp.attachments[i]
	m.comp.setAttachments(append(m.comp.attachments[:i:i], m.comp.attachments[i+1:]...))
	return m.notify("removed "+cells.OneLine(a.Name), toastInfo)
}

// attachLines is the rows the chips take.
func attachLines(n int) int { return min(n, maxChipLines) }

// renderChips draws the attachments above the composer, one per row: name,
// pixel size and bytes as sent, and what scaling did.
func renderChips(ctx *uictx.Context, atts []api.Attachment, w int, removeKey, showKey string) string {
	if len(atts) == 0 {
		return ""
	}
	style := ctx.Styles.Attachment
	inner := max(w-style.GetHorizontalFrameSize(), 1)
	st := chipStyle{style, inner, w}
	lines := make([]string, 0, attachLines(len(atts)))
	for i, a := range atts {
		if len(lines) == maxChipLines-1 && len(atts) > maxChipLines {
			lines = append(lines, st.render(fmt.Sprintf(" ▣ … and %d more", len(atts)-i)))
			break
		}
		lines = append(lines, st.render(" "+chip(a, i+1)))
	}
	// The way to remove one, on the last row when it fits.
	last := len(lines) - 1
	hint := "  " + removeKey + " removes the last"
	if showKey != "" {
		hint += " · " + showKey + " shows them"
	}
	if cells.Width(chip(atts[min(last, len(atts)-1)], last+1))+cells.Width(hint)+2 <= inner {
		lines[last] = st.render(" " + chip(atts[min(last, len(atts)-1)], last+1) + hint)
		if len(atts) > maxChipLines {
			lines[last] = st.render(fmt.Sprintf(" ▣ … and %d more%s", len(atts)-last, hint))
		}
	}
	return strings.Join(lines, "\n")
}

// chip is one attachment on one line.
func chip(a api.Attachment, n int) string {
	if a.IsRemote() {
		return fmt.Sprintf("%d 🔗 %s (a link, sent as is)", n, cells.OneLine(a.URL))
	}
	s := fmt.Sprintf("%d ▣ %s · %d×%d · %s", n, cells.OneLine(a.Name), a.Width, a.Height, bytesize.Format(int64(a.Bytes)))
	if a.Resized {
		s += fmt.Sprintf(" · scaled %d×%d → %d×%d, %s → %s", a.OrigWidth, a.OrigHeight, a.Width, a.Height,
			bytesize.Format(int64(a.OrigBytes)), bytesize.Format(int64(a.Bytes)))
	}
	return s
}

// attachUpTo attaches refs (paths or links) in a command, at most as many
// as the message has room for (attach_max_count): the rest are refused at
// once, said so, and never read. With check, the refs are a paste's paths
// and are all confirmed to be image files first (a few bytes of each), so
// a paste that is not images stays text whatever its count.
func (m *Model) attachUpTo(refs []string, pasted string, check bool) tea.Cmd {
	keep := min(max(m.opts.maxAttachments()-len(m.comp.attachments), 0), len(refs))
	var attach tea.Cmd
	switch {
	case check:
		attach = checkAndAttach(m.work.startAttaching(), refs, keep, pasted, attachLimits(m.opts, &m.pics))
	case keep > 0:
		attach = attachRefsContext(m.work.startAttaching(), refs[:keep], pasted, attachLimits(m.opts, &m.pics))
	}
	if keep == len(refs) {
		return attach
	}
	refused := len(refs) - keep
	return tea.Batch(attach, m.notify(fmt.Sprintf("a message carries at most %d images (attach_max_count); %d of the %d images %s not attached",
		m.opts.maxAttachments(), refused, len(refs), plural(refused, "was", "were")), toastWarn))
}

// attachRefsContext reads and prepares images (paths or URLs) off the UI
// goroutine, one after the other: every one is checked from its bytes,
// scaled to the limits (within lim.Budget). pasted, when not empty, is
// the paste the references came from: on any failure it goes into the
// composer as text, so nothing pasted is lost. When ctx ends, the image
// being read stops and the rest are not read; the paste then stays text
// too.
func attachRefsContext(ctx context.Context, refs []string, pasted string, lim api.AttachLimits) tea.Cmd {
	return func() tea.Msg {
		atts := make([]api.Attachment, 0, len(refs))
		for _, r := range refs {
			a, err := api.AttachContext(ctx, r, lim)
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				return attachedMsg{text: pasted, err: err}
			}
			atts = append(atts, a)
		}
		return attachedMsg{atts: atts}
	}
}

// chipStyle draws one chip row exactly w cells wide.
type chipStyle struct {
	style    lipgloss.Style
	inner, w int
}

func (c chipStyle) render(s string) string {
	return cells.Fit(c.style.Render(cells.Fit(s, c.inner)), c.w)
}
