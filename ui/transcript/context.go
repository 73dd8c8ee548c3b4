package transcript

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// New returns an empty transcript that reads its styles, Markdown style
// and key names from ctx (read-only; the root owns it). Call SetSize with
// the transcript's area before the first View.
func New(ctx *uictx.Context) *Transcript {
	t := newTranscript(settingsFrom(ctx))
	t.ctx = ctx
	return t
}

// Restyle is called by the root after the theme, the colour setting or the
// key map in the context changed (StyleGen grew). The window is rendered
// again at once in the new style, those near it a few per Tick, the rest
// when they come near.
func (t *Transcript) Restyle() {
	if t.ctx == nil {
		return
	}
	t.restyle(settingsFrom(t.ctx))
}

func settingsFrom(ctx *uictx.Context) settings {
	st := &ctx.Styles
	bar := lipgloss.NewStyle()
	if c := st.UserBlock.GetBorderLeftForeground(); themes.HasColor(c) && !ctx.NoColor {
		bar = bar.Foreground(c)
	}
	barChar := st.UserBlock.GetBorderStyle().Left
	if ansi.StringWidth(barChar) != 1 {
		barChar = "▌"
	}
	return settings{
		look: look{
			bar:        bar,
			barChar:    barChar,
			userLabel:  st.UserLabel,
			userText:   st.UserText,
			replyLabel: st.AssistantLabel,
			streaming:  st.Streaming,
			meta:       st.TurnMeta,
			errMark:    st.Failed,
			errText:    st.ErrorText,
			hint:       st.ErrorHint,
			note:       st.Warning,
			badge:      st.Interrupted,
			chip:       st.Attachment,
			indicator:  st.NewBelow,
			selected:   st.PickerSelected.UnsetPadding(),
			// The theme's muted text: dim, yet readable on the background
			// in every theme and in 16 colours (faint under NO_COLOR); the
			// words and the ┆ gutter say what it is without any colour.
			thinking: st.Muted,
		},
		glamour:   ctx.Glamour,
		retryKey:  keys.Short(ctx.Keys.Retry),
		thinkKey:  keys.Short(ctx.Keys.ToggleThinking),
		bottomKey: keys.Short(ctx.Keys.ScrollBottom),
	}
}

// look holds the styles the transcript draws with, for one style generation.
type look struct {
	bar               lipgloss.Style // colours barChar beside user turns
	barChar           string
	userLabel         lipgloss.Style
	userText          lipgloss.Style
	replyLabel        lipgloss.Style
	streaming, meta   lipgloss.Style
	errMark, errText  lipgloss.Style
	hint, note, badge lipgloss.Style
	chip, indicator   lipgloss.Style
	selected          lipgloss.Style // the message cursor's mark
	thinking          lipgloss.Style // a reply's reasoning and its folded line
}
