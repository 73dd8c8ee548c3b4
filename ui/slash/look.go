package slash

import (
	"charm.land/lipgloss/v2"

	"parley/ui/uictx"
)

// look is the set of styles the list draws with, taken from the theme's
// styles in one place, matching the overlays' look (same border, title,
// selection and match styles).
type look struct {
	border   lipgloss.Style // box border
	title    lipgloss.Style // "Commands" in the top border
	name     lipgloss.Style // "/model"
	args     lipgloss.Style // "[name]"
	text     lipgloss.Style // summaries, candidates
	muted    lipgloss.Style // details, hints, notes
	key      lipgloss.Style // "ctrl+o"
	match    lipgloss.Style // characters matching the filter
	selected lipgloss.Style // background of the highlighted row
	marker   lipgloss.Style // the ▸ of the highlighted row
	header   lipgloss.Style // the command whose arguments are being typed
	errText  lipgloss.Style // "no command matches"
}

// lookFor returns the list's styles for ctx: the theme's Styles (which
// already honour NO_COLOR), or attributes only when no theme was built.
func lookFor(ctx *uictx.Context) look {
	if ctx == nil || ctx.Styles.Theme == "" {
		return plainLook()
	}
	st := &ctx.Styles // not a copy: Styles is 47 KB
	bare := func(s lipgloss.Style) lipgloss.Style { return s.UnsetPadding().UnsetBorderStyle() }
	return look{
		border:   lipgloss.NewStyle().Foreground(st.Overlay.GetBorderTopForeground()),
		title:    st.OverlayTitle,
		name:     st.Accent,
		args:     st.Muted,
		text:     st.Text,
		muted:    st.Muted,
		key:      st.Help.FullKey,
		match:    st.PickerMatch,
		selected: bare(st.PickerSelected),
		marker:   st.Accent.Bold(true),
		header:   st.Accent.Bold(true),
		errText:  st.Warning,
	}
}

// plainLook uses attributes only: every state stays visible without colour
// (the highlighted row is reversed and marked, matches are underlined).
func plainLook() look {
	s := lipgloss.NewStyle()
	return look{
		border:   s,
		title:    s.Bold(true),
		name:     s.Bold(true),
		args:     s.Faint(true),
		text:     s,
		muted:    s.Faint(true),
		key:      s.Bold(true),
		match:    s.Underline(true).Bold(true),
		selected: s.Reverse(true),
		marker:   s.Bold(true),
		header:   s.Bold(true),
		errText:  s.Bold(true),
	}
}
