package overlay

import (
	"charm.land/lipgloss/v2"

	"parley/ui/uictx"
)

// look is the set of styles the overlays draw with, taken from the theme's
// styles in one place so the rest of the package does not depend on the
// theme's field names.
type look struct {
	border       lipgloss.Style // box border
	title        lipgloss.Style // box title, screen title
	heading      lipgloss.Style // group and section headings
	text         lipgloss.Style // ordinary text
	muted        lipgloss.Style // details, hints, counts
	accent       lipgloss.Style // paths, custom entries
	code         lipgloss.Style // example commands and config lines
	selected     lipgloss.Style // background of the selected row
	selectedText lipgloss.Style // text of a selected action line
	marker       lipgloss.Style // the ▸ cursor marker
	current      lipgloss.Style // the ● current marker
	match        lipgloss.Style // filter matches in titles
	cursor       lipgloss.Style // the filter's cursor cell
	prompt       lipgloss.Style // the filter's › prompt
	errorText    lipgloss.Style
	good         lipgloss.Style // ✓ found
	key          lipgloss.Style // help: keys
	desc         lipgloss.Style // help: descriptions
	badges       [5]lipgloss.Style
}

func (l look) badgeStyle(k BadgeKind) lipgloss.Style {
	if int(k) >= 0 && int(k) < len(l.badges) {
		return l.badges[k]
	}
	return l.muted
}

// lookFor returns the overlay styles for the context: the theme's Styles
// (which already honour NO_COLOR), with the few roles Styles has no field
// for (code lines, the filter cursor) made from the theme's colours. A
// context whose Styles were never built gets the plain look.
func lookFor(ctx *uictx.Context) look {
	if ctx == nil || ctx.Styles.Theme == "" {
		return plainLook()
	}
	st := &ctx.Styles // not a copy: Styles is 47 KB
	n := lipgloss.NewStyle
	bare := func(s lipgloss.Style) lipgloss.Style { return s.UnsetPadding().UnsetBorderStyle() }
	l := look{
		border:       n().Foreground(st.Overlay.GetBorderTopForeground()),
		title:        st.OverlayTitle,
		heading:      st.OverlayTitle,
		text:         st.Text,
		muted:        st.Muted,
		accent:       st.Accent,
		code:         st.Text,
		selected:     bare(st.PickerSelected),
		selectedText: st.Accent.Bold(true),
		marker:       st.Accent.Bold(true),
		current:      st.Success.Bold(true),
		match:        st.PickerMatch,
		cursor:       n().Reverse(true),
		prompt:       st.PickerFilter.Bold(true),
		errorText:    st.Error,
		good:         st.Success,
		key:          st.Help.FullKey,
		desc:         st.Help.FullDesc,
	}
	for i := range l.badges {
		l.badges[i] = st.Badge
	}
	if !ctx.NoColor && !st.NoColor {
		t := ctx.Theme
		if t.InlineCode != "" {
			l.code = n().Foreground(lipgloss.Color(string(t.InlineCode)))
		}
		if t.Accent != "" {
			l.cursor = n().Background(lipgloss.Color(string(t.Accent)))
		}
	}
	return l
}

// plainLook uses attributes only (no colour): what NO_COLOR gets, and the
// base the themed look builds on. Every state stays visible: the selected
// row is reversed and marked, matches are underlined.
func plainLook() look {
	s := lipgloss.NewStyle()
	l := look{
		border:       s,
		title:        s.Bold(true),
		heading:      s.Bold(true),
		text:         s,
		muted:        s.Faint(true),
		accent:       s.Bold(true),
		code:         s,
		selected:     s.Reverse(true),
		selectedText: s.Bold(true),
		marker:       s.Bold(true),
		current:      s.Bold(true),
		match:        s.Underline(true).Bold(true),
		cursor:       s.Reverse(true),
		prompt:       s.Bold(true),
		errorText:    s.Bold(true),
		good:         s.Bold(true),
		key:          s.Bold(true),
		desc:         s,
	}
	for i := range l.badges {
		l.badges[i] = s.Italic(true)
	}
	return l
}
