package uictx

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"parley/ui/cells"
)

// Hint is one "key: what it does" pair a component lists for the hint
// line (or draws on its own bottom row).
type Hint struct {
	Key, Desc string
}

// KeyOf is the first key of b the short way people read it in a hint
// ("↑", "pgdn", "ctrl+o"), or fallback when b is unbound.
func KeyOf(b key.Binding, fallback string) string {
	if !b.Enabled() {
		return fallback
	}
	k := b.Help().Key
	if k == "" {
		if ks := b.Keys(); len(ks) > 0 {
			k = ks[0]
		}
	}
	if i := strings.IndexByte(k, '/'); i > 0 {
		k = k[:i]
	}
	switch k {
	case "":
		return fallback
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "pgdown":
		return "pgdn"
	}
	return k
}

// HintLine draws hints in exactly w cells, in the theme's hint styles:
// as many as fit, in order, and always the last one (the way out, by
// convention) when anything fits at all.
func (c *Context) HintLine(hints []Hint, w int) string {
	if w <= 0 {
		return ""
	}
	st := &c.Styles
	size := func(h Hint, first bool) int {
		sep := 3 // " · "
		if first {
			sep = 1
		}
		return sep + cells.Width(h.Key) + 1 + cells.Width(h.Desc)
	}
	var ok []Hint
	for _, h := range hints {
		if h.Key != "" {
			ok = append(ok, h)
		}
	}
	var kept []Hint
	if len(ok) > 0 {
		last := ok[len(ok)-1]
		used := 0
		for _, h := range ok[:len(ok)-1] {
			n := size(h, len(kept) == 0)
			if used+n+size(last, false) > w {
				break
			}
			kept = append(kept, h)
			used += n
		}
		if used+size(last, len(kept) == 0) <= w {
			kept = append(kept, last)
		}
	}
	var b strings.Builder
	for i, h := range kept {
		if i == 0 {
			b.WriteString(st.KeyHintSep.Render(" "))
		} else {
			b.WriteString(st.KeyHintSep.Render(" · "))
		}
		b.WriteString(st.KeyHintKey.Render(h.Key))
		b.WriteString(st.KeyHint.Render(" " + h.Desc))
	}
	return cells.Fit(b.String(), w)
}

// HintCache keeps the last hint line a component drew, so a frame whose
// keys did not change does not style them again. The zero value is
// ready.
type HintCache struct {
	key  string
	w    int
	gen  int
	ok   bool
	line string
}

// Line is c.HintLine(hints, w), from the cache when the hints, the width
// and the style generation are those of the last call.
func (h *HintCache) Line(c *Context, hints []Hint, w int) string {
	var b strings.Builder
	for _, x := range hints {
		b.WriteString(x.Key)
		b.WriteByte(0)
		b.WriteString(x.Desc)
		b.WriteByte(0)
	}
	key := b.String()
	if h.ok && h.key == key && h.w == w && h.gen == c.StyleGen {
		return h.line
	}
	*h = HintCache{key: key, w: w, gen: c.StyleGen, ok: true, line: c.HintLine(hints, w)}
	return h.line
}
