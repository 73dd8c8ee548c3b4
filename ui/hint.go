package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/conversation"
	"parley/ui/keys"
)

// hintItem is one "key action" pair of the hint line.
type hintItem struct{ key, desc string }

// renderHint draws the key hint line: the keys that matter in the current
// state, as many as fit in w cells.
func (m *Model) renderHint(items []hintItem, w int) string {
	lk := m.look()
	c := &m.chrome
	if c.hintGen != m.ctx.StyleGen || c.hintParts == nil {
		c.hintParts, c.hintGen = map[string]string{}, m.ctx.StyleGen
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
		b.WriteString(paint(lk.hintKey, 'k', it.key))
		b.WriteString(paint(lk.hintDesc, 'd', " "+it.desc))
		used += ansi.StringWidth(sep) + ansi.StringWidth(it.key) + 1 + ansi.StringWidth(it.desc)
	}
	if used < w {
		b.WriteString(paint(lk.hintDesc, 'd', strings.Repeat(" ", w-used)))
	}
	return b.String()
}

func hintKey(items []hintItem, w, gen int) string {
	var b strings.Builder
	b.WriteString(itoa(w))
	b.WriteByte('/')
	b.WriteString(itoa(gen))
	for _, it := range items {
		b.WriteByte(0)
		b.WriteString(it.key)
		b.WriteByte(1)
		b.WriteString(it.desc)
	}
	return b.String()
}

// fitHints keeps the items that fit in w cells, in order; the last item
// (help) is kept whenever anything fits, so the way to every other key is
// always on screen.
func fitHints(items []hintItem, w int) []hintItem {
	var ok []hintItem
	for _, it := range items {
		if it.key != "" {
			ok = append(ok, it)
		}
	}
	cellW := func(it hintItem, first bool) int {
		sep := 3
		if first {
			sep = 1
		}
		return sep + ansi.StringWidth(it.key) + 1 + ansi.StringWidth(it.desc)
	}
	if len(ok) == 0 {
		return nil
	}
	last := ok[len(ok)-1]
	lastW := cellW(last, false)
	var out []hintItem
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
func (m *Model) hintItems() []hintItem {
	km := m.keyMap()
	k := keyOf
	if l := m.layers.top(); l != nil {
		return l.hints(km)
	}
	switch {
	case m.menuOpen():
		return m.menuHints()
	case m.codePrefix:
		return []hintItem{{"1…9", "copy that code block of the last reply"}, {k(km.Cancel), "cancel"}}
	case m.stream != nil:
		return []hintItem{{k(km.Cancel), "stop"}, {k(km.ScrollUp) + "/" + k(km.ScrollDown), "scroll"}, {k(km.CopyReply), "copy"}, {m.helpHintKey(), "help"}}
	case m.comp.editing:
		return []hintItem{{k(km.Send), "resend"}, {k(km.Newline), "new line"}, {k(km.Editor), "editor"}, {k(km.Cancel), "leave edit"}}
	}
	items := []hintItem{{k(km.Send), "send"}, {k(km.Newline), "new line"}}
	if st, ok := m.lastReplyState(); ok && (st == conversation.StateFailed || st == conversation.StateInterrupted) {
		items = append([]hintItem{{k(km.Retry), "retry"}}, items...)
	}
	if m.comp.textEmpty() {
		items = append(items, hintItem{"/", "commands"})
	}
	if m.conv.Len() > 0 && m.comp.empty() {
		items = append(items, hintItem{k(km.EditLast), "edit"})
	}
	items = append(items, hintItem{k(km.ModelPicker), "model"})
	if _, ok := m.conv.LastReply(); ok {
		items = append(items, hintItem{k(km.CopyReply), "copy"})
	}
	items = append(items,
		hintItem{k(km.Editor), "editor"},
		hintItem{k(km.ThemePicker), "theme"},
		hintItem{m.helpHintKey(), "help"},
	)
	return items
}

// keyOf is a binding's first key, the short way people read it in a hint.
func keyOf(b key.Binding) string { return keyLabel(firstKey(b, "")) }

// helpHintKey is the help key to show: "?" types itself once the composer
// has text, so then a key that always opens help (F1) is shown.
func (m *Model) helpHintKey() string {
	b := m.keyMap().Help
	if !b.Enabled() {
		return ""
	}
	if m.comp.textEmpty() {
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
