package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/conversation"
	"parley/ui/keys"
	"parley/ui/sidepane"
	"parley/ui/transcript"
	"parley/ui/uictx"
)

// renderHint draws the key hint line: the keys that matter in the current
// state, as many as fit in w cells.
func (c *chrome) renderHint(ctx *uictx.Context, items []uictx.Hint, w int) string {
	lk := lookOf(&ctx.Styles)
	if c.hintGen != ctx.StyleGen || c.hintParts == nil {
		c.hintParts, c.hintGen = map[string]string{}, ctx.StyleGen
	}
	// Styled pieces are kept per style generation: lipgloss rendering is
	// the expensive part of the line.
	paint := func(st lipgloss.Style, kind byte, s string) string {
		k := string(kind) + s
		if r, ok := c.hintParts[k]; ok {
			return r
		}
		r := st.Render(s)
		if len(c.hintParts) < 256 {
			c.hintParts[k] = r
		}
		return r
	}
	var b strings.Builder
	used := 0
	for i, it := range items {
		sep := " · "
		if i == 0 {
			sep = " "
		}
		b.WriteString(paint(lk.hintSep, 's', sep))
		b.WriteString(paint(lk.hintKey, 'k', it.Key))
		b.WriteString(paint(lk.hintDesc, 'd', " "+it.Desc))
		used += ansi.StringWidth(sep) + ansi.StringWidth(it.Key) + 1 + ansi.StringWidth(it.Desc)
	}
	if used < w {
		b.WriteString(paint(lk.hintDesc, 'd', strings.Repeat(" ", w-used)))
	}
	return b.String()
}

func hintKey(items []uictx.Hint, w, gen int) string {
	var b strings.Builder
	b.WriteString(itoa(w))
	b.WriteByte('/')
	b.WriteString(itoa(gen))
	for _, it := range items {
		b.WriteByte(0)
		b.WriteString(it.Key)
		b.WriteByte(1)
		b.WriteString(it.Desc)
	}
	return b.String()
}

// fitHints keeps the items that fit in w cells, in order; the last item
// (help) is kept whenever anything fits, so the way to every other key is
// always on screen.
func fitHints(items []uictx.Hint, w int) []uictx.Hint {
	var ok []uictx.Hint
	for _, it := range items {
		if it.Key != "" {
			ok = append(ok, it)
		}
	}
	cellW := func(it uictx.Hint, first bool) int {
		sep := 3
		if first {
			sep = 1
		}
		return sep + ansi.StringWidth(it.Key) + 1 + ansi.StringWidth(it.Desc)
	}
	if len(ok) == 0 {
		return nil
	}
	last := ok[len(ok)-1]
	lastW := cellW(last, false)
	var out []uictx.Hint
	used := 0
	for i, it := range ok[:len(ok)-1] {
		c := cellW(it, i == 0)
		if used+c+lastW > w {
			break
		}
		out = append(out, it)
		used += c
	}
	if used+cellW(last, len(out) == 0) <= w {
		out = append(out, last)
	}
	return out
}

// hintItems lists the keys for the current state, most useful first.
func (m *Model) hintItems() []uictx.Hint {
	km := &m.ctx.Keys
	k := keyOf
	if l := m.layers.top(); l != nil {
		return l.Hints()
	}
	if m.focus.on == focusPane {
		if p, ok := m.pane.(sidepane.Focusable); ok {
			return p.Hints()
		}
	}
	if sel, ok := m.eng.Conv().ByID(shownCursor(m.focus, m.eng.Conv(), false)); ok {
		return cursorHints(sel)
	}
	if h := m.cmp.hints(m.eng, m.comp.empty() && !m.menu.IsOpen()); h != nil {
		return h
	}
	switch {
	case m.menu.IsOpen():
		return menuHints(&m.ctx.Keys)
	case m.armed.codePrefix:
		return []uictx.Hint{{Key: "1…9", Desc: "copy that code block of the last reply"}, {Key: k(km.Cancel), Desc: "cancel"}}
	case m.eng.Reply() != nil:
		return []uictx.Hint{{Key: k(km.Cancel), Desc: "stop"}, {Key: k(km.ScrollUp) + "/" + k(km.ScrollDown), Desc: "scroll"}, {Key: k(km.CopyReply), Desc: "copy"}, {Key: helpHintKey(km, m.comp.textEmpty()), Desc: "help"}}
	case m.comp.editing:
		return []uictx.Hint{{Key: k(km.Send), Desc: "resend"}, {Key: k(km.Newline), Desc: "new line"}, {Key: k(km.Editor), Desc: "editor"}, {Key: k(km.Cancel), Desc: "leave edit"}}
	}
	items := []uictx.Hint{{Key: k(km.Send), Desc: "send"}, {Key: k(km.Newline), Desc: "new line"}}
	if r, ok := lastTurn(m.eng.Conv()); ok && transcript.RetryHelps(r) {
		items = append([]uictx.Hint{{Key: k(km.Retry), Desc: "retry"}}, items...)
	}
	if m.comp.textEmpty() {
		items = append(items, uictx.Hint{Key: "/", Desc: "commands"})
	}
	if m.eng.Conv().Len() > 0 && m.comp.empty() {
		if m.tr.List().AtBottom() {
			items = append(items, uictx.Hint{Key: k(km.EditLast), Desc: "edit"})
		} else {
			// Scrolled up, the arrows of an empty composer scroll.
			items = append(items, uictx.Hint{Key: "↑/↓", Desc: "scroll"})
		}
	}
	items = append(items, uictx.Hint{Key: k(km.ModelPicker), Desc: "model"})
	if _, ok := m.eng.Conv().LastReply(); ok {
		items = append(items, uictx.Hint{Key: k(km.CopyReply), Desc: "copy"})
	}
	items = append(items,
		uictx.Hint{Key: k(km.Editor), Desc: "editor"},
		uictx.Hint{Key: k(km.ThemePicker), Desc: "theme"},
		uictx.Hint{Key: helpHintKey(km, m.comp.textEmpty()), Desc: "help"},
	)
	return items
}

// keyOf is a binding's first key, the short way people read it in a hint.
func keyOf(b key.Binding) string { return keyLabel(firstKey(b, "")) }

// helpHintKey is the help key to show: a printable help key types itself
// once the composer has text, so then a key that always opens help (F1)
// is shown.
func helpHintKey(km *keys.Map, textEmpty bool) string {
	b := km.Help
	if !b.Enabled() {
		return ""
	}
	if textEmpty {
		return keyLabel(firstKey(b, ""))
	}
	for _, k := range b.Keys() {
		if !keys.Printable(k) {
			return keyLabel(k)
		}
	}
	return ""
}

// keyLabel shows a key the short way people read it in a hint.
func keyLabel(k string) string {
	switch k {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "pgdown":
		return "pgdn"
	}
	return k
}

// firstKey is the first key a binding shows in help, or fallback.
func firstKey(b key.Binding, fallback string) string {
	if !b.Enabled() {
		return fallback
	}
	h := b.Help().Key
	if h == "" {
		if ks := b.Keys(); len(ks) > 0 {
			return ks[0]
		}
		return fallback
	}
	if i := strings.IndexByte(h, '/'); i > 0 {
		return h[:i]
	}
	return h
}

// lastTurn is the last message of the path when it ends a turn (a reply
// or an image turn): retry applies to it alone.
func lastTurn(c *conversation.Conversation) (conversation.Message, bool) {
	n := c.Len()
	if n == 0 {
		return conversation.Message{}, false
	}
	last := c.At(n - 1)
	return last, last.Role != api.RoleUser
}
