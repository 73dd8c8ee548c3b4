package browser

import (
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"parley/session"
	"parley/ui/cells"
	"parley/ui/list"
	"parley/ui/uictx"
)

// untitled is what a session without a title is called, everywhere.
const untitled = "(untitled)"

// entry is one row: a session, or a message of a session that matched
// the search.
type entry struct {
	hit     bool
	meta    session.Meta
	msg     session.Hit
	section string // for a message: "Messages with “query”"
}

func (e entry) title() string {
	t := e.meta.Title
	if e.hit {
		t = e.msg.SessionTitle
	}
	if t = cells.OneLine(strings.TrimSpace(t)); t == "" {
		return untitled
	}
	return t
}

func (e entry) sessionID() string {
	if e.hit {
		return e.msg.SessionID
	}
	return e.meta.ID
}

// listOptions: sessions are filtered by title; messages the search found
// are kept whatever the filter, under their heading. Rows are two lines.
func (b *Browser) listOptions() list.Options[entry] {
	ctx, now, current := b.ctx, b.opts.Now, b.opts.Current
	return list.Options[entry]{
		Text: func(e entry) string { return e.title() },
		Keep: func(e entry) bool { return e.hit },
		ID: func(e entry) string {
			if e.hit {
				return "m/" + e.msg.SessionID + "/" + strconv.Itoa(e.msg.MessageID)
			}
			return "s/" + e.meta.ID
		},
		Section:   func(e entry) string { return e.section },
		RowHeight: 2,
		Typing:    true,
		Empty:     "no saved session yet: every conversation is kept here as you chat",
		Render: func(r list.Row[entry]) string {
			return renderEntry(ctx, now(), current, r)
		},
	}
}

// setItems gives the list the sessions and the messages found.
func (b *Browser) setItems() {
	items := make([]entry, 0, len(b.all)+len(b.hits))
	for _, m := range b.all {
		items = append(items, entry{meta: m})
	}
	section := " Messages with “" + cells.OneLine(b.hitsOf) + "”"
	for _, h := range b.hits {
		items = append(items, entry{hit: true, msg: h, section: section})
	}
	b.list.SetItems(items)
}

// renderEntry draws a row: the title with its details at the right, and
// a muted second line, the session's latest text as plain text or the
// message's snippet with the matched words marked.
func renderEntry(ctx *uictx.Context, now time.Time, current string, r list.Row[entry]) string {
	st := &ctx.Styles
	e, w := r.Item, r.Width
	title, info := e.title(), ""
	var second string
	if e.hit {
		info = cells.OneLine(e.msg.Role) + " · " + when(now, e.msg.Created)
		second = snippetLine(st.Muted, st.PickerMatch, e.msg.Snippet, w)
	} else {
		m := e.meta
		if m.ID == current {
			title += " · open"
		}
		if model := cells.OneLine(m.Model); model != "" {
			info = model + " · "
		}
		info += when(now, m.Updated) + " · " + strconv.Itoa(m.Messages) + " " + plural(m.Messages, "message", "messages")
		if m.HasDraft {
			info += " · draft"
		}
		// The store made the preview plain text line by line (Markdown
		// left out where it stands at a line's start); what is left is
		// text, shown whole, made safe and folded onto the line.
		second = st.Muted.Render(cells.Fit("    "+cells.Fold(m.Preview), w))
	}
	row, hit := st.Text, st.PickerMatch
	if e.hit {
		row = st.Muted
	}
	mark := "  "
	if r.Selected {
		mark = "▸ "
		row = st.PickerSelected.UnsetPaddingLeft()
		hit = hit.Inherit(row)
	}
	infoW := min(cells.Width(info), max(w/2, 10))
	titleW := max(w-2-infoW-2, 1)
	title = cells.Truncate(title, titleW) // plain: the hits of the runes kept still line up
	gap := max(w-2-cells.Width(title)-infoW, 1)
	first := row.Render(mark) + list.Highlight(title, r.Hits, row, hit) +
		row.Render(cells.Spaces(gap)+cells.Truncate(info, infoW))
	return cells.Fit(first, w) + "\n" + second
}

// snippetLine draws a search snippet on one line of w cells, indented,
// the matched words in hit style.
func snippetLine(muted, hit lipgloss.Style, snippet string, w int) string {
	var b strings.Builder
	used := 4
	b.WriteString(cells.Spaces(4))
	for _, sp := range session.SplitSnippet(snippet) {
		room := w - used
		if room <= 0 {
			break
		}
		t := cells.Truncate(plainSpan(sp.Text), room)
		used += cells.Width(t)
		if sp.Hit {
			b.WriteString(hit.Render(t))
		} else {
			b.WriteString(muted.Render(t))
		}
	}
	return cells.Fit(b.String(), w)
}

// when shows a time the short way: the hour today, the day this year,
// the date before.
func when(now, t time.Time) string {
	t = t.Local()
	now = now.Local()
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("Jan 2")
	}
	return t.Format("2006-01-02")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// plainSpan is a piece of a snippet made safe for one line. The store
// made the snippet plain text already (Markdown left out line by line, as
// in previews), so nothing more is taken out here: a piece is a fragment
// of a line, where ":" or ">" standing alone is text, not Markdown.
func plainSpan(s string) string { return cells.OneLine(s) }
