package ui

import (
	"charm.land/lipgloss/v2"

	"parley/themes"
)

// look is the root's styles, taken from the theme's Styles in one place.
type look struct {
	statusBar, statusModel, statusTitle     lipgloss.Style
	statusBusy, statusMuted, statusWarn     lipgloss.Style
	statusErr                               lipgloss.Style
	hintKey, hintDesc, hintSep              lipgloss.Style
	toastInfo, toastOK, toastWarn, toastErr lipgloss.Style
	banner, bannerTitle                     lipgloss.Style
}

// lookOf maps the theme's styles to the root's parts. It takes them by
// pointer: Styles is 47 KB, and a copy per call put 100 KB frames on the
// paths every frame takes (status line, hint, notices).
func lookOf(s *themes.Styles) look {
	l := look{
		statusBar:   s.StatusBar,
		statusModel: s.StatusModel,
		statusTitle: s.StatusTitle,
		statusBusy:  s.StatusState,
		statusMuted: s.StatusInfo,
		statusWarn:  s.StatusWarn,
		statusErr:   s.StatusWarn,
		hintKey:     s.KeyHintKey,
		hintDesc:    s.KeyHint,
		hintSep:     s.KeyHintSep,
		toastInfo:   s.Toast,
		toastOK:     s.Toast,
		toastWarn:   s.Toast,
		toastErr:    s.ToastError,
		banner:      s.Warning,
		bannerTitle: s.Warning.Bold(true),
	}
	if !s.NoColor {
		if fg := s.Error.GetForeground(); themes.HasColor(fg) {
			l.statusErr = s.StatusWarn.Foreground(fg)
		}
		if fg := s.Info.GetForeground(); themes.HasColor(fg) {
			l.toastInfo = s.Toast.Foreground(fg)
		}
		if fg := s.Warning.GetForeground(); themes.HasColor(fg) {
			l.toastWarn = s.Toast.Foreground(fg)
		}
	}
	return l
}
