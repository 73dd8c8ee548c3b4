package themes

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	"charm.land/lipgloss/v2"
)

// Styles holds every lipgloss style the UI draws with, built from a Theme.
// With NoColor no style carries a colour; bold, italic, underline, faint and
// reverse remain, so focus, selection and turn states stay visible.
type Styles struct {
	Theme   string // name of the theme the styles were built from
	NoColor bool

	// Plain text roles.
	Text, Muted, Subtle, Accent   lipgloss.Style
	Error, Warning, Success, Info lipgloss.Style
	Placeholder                   lipgloss.Style // for termsafe.Mark: ␛, ⟨U+202E⟩
	Bold, Italic                  lipgloss.Style // emphasis without colour

	// Transcript.
	UserLabel, UserText            lipgloss.Style
	AssistantLabel                 lipgloss.Style
	AssistantText                  lipgloss.Style // assistant text shown without Markdown rendering
	UserBlock                      lipgloss.Style // bar beside a user turn: a left border and one column of padding
	TurnMeta                       lipgloss.Style // model name, time, tokens under a turn
	Streaming, Interrupted, Failed lipgloss.Style // turn state badges
	ErrorText, ErrorHint           lipgloss.Style // a failed turn's message and "ctrl+r to retry"
	NewBelow                       lipgloss.Style // "new text below" indicator

	// Status bar and key hint.
	StatusBar                       lipgloss.Style // the whole bar; pieces below share its background
	StatusModel, StatusTitle        lipgloss.Style
	StatusState, StatusInfo         lipgloss.Style // spinner/state, and figures (elapsed, tok/s, usage)
	StatusWarn, StatusSep           lipgloss.Style // "history trimmed", separators
	Spinner                         lipgloss.Style
	KeyHint, KeyHintKey, KeyHintSep lipgloss.Style // the one-line key hint

	// Composer.
	ComposerFocused, ComposerBlurred lipgloss.Style // rounded box; the same size in both states
	Attachment                       lipgloss.Style // an attachment chip above the composer
	Textarea                         textarea.Styles

	// Overlays: help, pickers, first-run setup.
	Overlay, OverlayTitle lipgloss.Style // box (border and padding) and its title
	Help                  help.Styles
	PickerItem            lipgloss.Style
	PickerSelected        lipgloss.Style
	PickerMatch           lipgloss.Style // characters matching the filter
	PickerFilter          lipgloss.Style // the filter input line
	PickerDesc            lipgloss.Style // secondary text of an item
	Badge                 lipgloss.Style // capability badge: vision, image, edit
	BadgeSelected         lipgloss.Style // a badge on the selected item

	// Toasts: short notices such as "copied".
	Toast, ToastError lipgloss.Style
}

// painter applies a theme's colours, or nothing when colour is off.
type painter struct{ noColor bool }

func (p painter) fg(s lipgloss.Style, c Color) lipgloss.Style {
	if col, ok := c.lip(); ok && !p.noColor {
		return s.Foreground(col)
	}
	return s
}

func (p painter) bg(s lipgloss.Style, c Color) lipgloss.Style {
	if col, ok := c.lip(); ok && !p.noColor {
		return s.Background(col)
	}
	return s
}

func (p painter) border(s lipgloss.Style, c Color) lipgloss.Style {
	if col, ok := c.lip(); ok && !p.noColor {
		return s.BorderForeground(col)
	}
	return s
}

// Styles builds the UI styles. noColor is the NO_COLOR setting (the caller
// reads the environment).
func (t Theme) Styles(noColor bool) Styles {
	var s Styles
	t.SetStyles(&s, noColor)
	return s
}

// SetStyles builds the UI styles into s, for a caller that keeps them in a
// larger struct: Styles is 47 KB, and Styles's returned value is one more
// copy of it on the caller's stack.
func (t Theme) SetStyles(s *Styles, noColor bool) {
	p := painter{noColor}
	*s = Styles{Theme: t.Name, NoColor: noColor}
	t.plainStyles(p, s)
	t.transcriptStyles(p, s)
	t.statusStyles(p, s)
	t.composerStyles(p, s)
	t.overlayStyles(p, s)
	t.toastStyles(p, s)
}

// plainStyles sets the plain text roles and the placeholder for
// neutralised control characters.
func (t Theme) plainStyles(p painter, s *Styles) {
	n := lipgloss.NewStyle
	s.Text = p.fg(n(), t.Text)
	s.Muted = p.fg(n(), t.Muted)
	s.Subtle = p.fg(n(), t.Subtle)
	s.Accent = p.fg(n(), t.Accent)
	s.Error = p.fg(n(), t.Error)
	s.Warning = p.fg(n(), t.Warning)
	s.Success = p.fg(n(), t.Success)
	s.Info = p.fg(n(), t.Info)
	s.Bold = n().Bold(true)
	s.Italic = n().Italic(true)
	if p.noColor {
		s.Muted = s.Muted.Faint(true)
		s.Subtle = s.Subtle.Faint(true)
		s.Error = s.Error.Bold(true)
		s.Warning = s.Warning.Bold(true)
	}
	// Placeholders must stand out from model text in every mode.
	s.Placeholder = p.fg(n(), t.Control).Bold(true)
	if p.noColor {
		s.Placeholder = n().Reverse(true)
	}
}

// transcriptStyles sets the styles of turns: labels, text, the user bar,
// meta lines, state badges and the new-text-below marker.
func (t Theme) transcriptStyles(p painter, s *Styles) {
	n := lipgloss.NewStyle
	s.UserLabel = p.fg(n().Bold(true), t.UserLabel)
	s.UserText = p.fg(n(), t.UserText)
	s.AssistantLabel = p.fg(n().Bold(true), t.AssistantLabel)
	s.AssistantText = n() // the terminal's default colour, like rendered Markdown body text
	s.UserBlock = p.border(n().Border(lipgloss.ThickBorder(), false, false, false, true).PaddingLeft(1), t.UserLabel)
	s.TurnMeta = p.fg(n(), t.Subtle)
	s.Streaming = p.fg(n().Bold(true), t.Info)
	s.Interrupted = p.fg(n().Bold(true), t.Warning)
	s.Failed = p.fg(n().Bold(true), t.Error)
	s.ErrorText = p.fg(n(), t.Error)
	s.ErrorHint = p.fg(n().Italic(true), t.Muted)
	s.NewBelow = p.bg(p.fg(n().Bold(true).Padding(0, 1), t.onAccent()), t.Accent)
	if p.noColor {
		s.TurnMeta = s.TurnMeta.Faint(true)
		s.Streaming = s.Streaming.Bold(false).Italic(true)
		s.Interrupted = s.Interrupted.Underline(true)
		s.Failed = s.Failed.Reverse(true)
		s.NewBelow = s.NewBelow.Reverse(true)
	}
}

// statusStyles sets the status bar, whose pieces share its background,
// and the one-line key hint.
func (t Theme) statusStyles(p painter, s *Styles) {
	n := lipgloss.NewStyle
	bar := p.bg(p.fg(n(), t.Text), t.Surface)
	if p.noColor {
		bar = n().Reverse(true)
	}
	s.StatusBar = bar
	s.StatusModel = p.fg(bar.Bold(true), t.Accent)
	s.StatusTitle = p.fg(bar, t.Text)
	s.StatusState = p.fg(bar.Bold(true), t.Info)
	s.StatusInfo = p.fg(bar, t.Muted)
	s.StatusWarn = p.fg(bar.Bold(true), t.Warning)
	// The muted colour is the dimmest that is readable on the bar: the
	// subtle one is made for the terminal's background.
	s.StatusSep = p.fg(bar, t.Muted)
	s.Spinner = p.fg(n(), t.Info)
	s.KeyHint = p.fg(n(), t.Subtle)
	s.KeyHintKey = p.fg(n().Bold(true), t.Muted)
	// Separators are text and take the dimmest text colour; the border
	// colour is made for lines (1.5-2:1 on the background).
	s.KeyHintSep = p.fg(n(), t.Subtle)
	if p.noColor {
		s.KeyHint = s.KeyHint.Faint(true)
		s.KeyHintSep = s.KeyHintSep.Faint(true)
	}
}

// composerStyles sets the composer's box, its attachment chips and its
// textarea.
func (t Theme) composerStyles(p painter, s *Styles) {
	n := lipgloss.NewStyle
	box := n().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	s.ComposerFocused = p.border(box, t.BorderFocus)
	s.ComposerBlurred = p.border(box, t.Border)
	if p.noColor {
		// Without colour the border shape carries focus; both borders are one
		// cell wide, so the layout does not move.
		s.ComposerFocused = box.Border(lipgloss.ThickBorder())
	}
	s.Attachment = p.fg(n().Padding(0, 1), t.Info)
	s.Attachment = p.bg(s.Attachment, t.Surface)
	if p.noColor {
		s.Attachment = n().Padding(0, 1).Underline(true)
	}
	s.Textarea = t.textareaStyles(p)
}

// overlayStyles sets the overlays' box and title, the help view and the
// pickers.
func (t Theme) overlayStyles(p painter, s *Styles) {
	n := lipgloss.NewStyle
	s.Overlay = p.border(n().Border(lipgloss.RoundedBorder()).Padding(0, 1), t.BorderFocus)
	s.OverlayTitle = p.fg(n().Bold(true), t.Accent)
	s.Help = help.Styles{
		Ellipsis:       p.fg(n(), t.Subtle),
		ShortKey:       p.fg(n().Bold(true), t.Muted),
		ShortDesc:      p.fg(n(), t.Subtle),
		ShortSeparator: p.fg(n(), t.Subtle),
		FullKey:        p.fg(n().Bold(true), t.Accent),
		FullDesc:       p.fg(n(), t.Text),
		FullSeparator:  p.fg(n(), t.Subtle),
	}
	s.PickerItem = p.fg(n().PaddingLeft(2), t.Text)
	s.PickerSelected = p.bg(p.fg(n().PaddingLeft(2).Bold(true), t.SelectionText), t.Selection)
	s.PickerMatch = p.fg(n().Underline(true), t.Accent)
	s.PickerFilter = p.fg(n(), t.Accent)
	s.PickerDesc = p.fg(n(), t.Muted)
	s.Badge = p.fg(n(), t.Info)
	s.BadgeSelected = p.bg(p.fg(n(), t.SelectionText), t.Selection)
	if p.noColor {
		s.PickerSelected = n().PaddingLeft(2).Bold(true).Reverse(true)
		s.PickerDesc = s.PickerDesc.Faint(true)
		s.Badge = n().Italic(true)
		s.BadgeSelected = n().Italic(true).Reverse(true)
	}
}

// toastStyles sets the toasts: short notices such as "copied".
func (t Theme) toastStyles(p painter, s *Styles) {
	n := lipgloss.NewStyle
	s.Toast = p.bg(p.fg(n().Padding(0, 1), t.Success), t.Surface)
	s.ToastError = p.bg(p.fg(n().Padding(0, 1).Bold(true), t.Error), t.Surface)
	if p.noColor {
		s.Toast = n().Padding(0, 1).Reverse(true)
		s.ToastError = n().Padding(0, 1).Reverse(true).Bold(true)
	}
}

// onAccent is the text colour for a marker on the accent: the selection
// text, made for the selection, can vanish there (gruvbox's cream on
// yellow measured 1.5:1), so the surface colour is taken when it stands
// out more.
func (t Theme) onAccent() Color {
	if t.Accent == "" || t.Surface == "" {
		return t.SelectionText
	}
	if t.SelectionText == "" || contrastOf(t.Surface, t.Accent) > contrastOf(t.SelectionText, t.Accent) {
		return t.Surface
	}
	return t.SelectionText
}

// contrastOf is the contrast of two theme colours (0 when one is empty).
func contrastOf(a, b Color) float64 {
	ar, ag, ab, ok1 := rgbOf(a)
	br, bg, bb, ok2 := rgbOf(b)
	if !ok1 || !ok2 {
		return 0
	}
	to8 := func(r, g, b float64) [3]uint8 {
		return [3]uint8{uint8(r*255 + 0.5), uint8(g*255 + 0.5), uint8(b*255 + 0.5)}
	}
	return Contrast(to8(ar, ag, ab), to8(br, bg, bb))
}

func (t Theme) textareaStyles(p painter) textarea.Styles {
	n := lipgloss.NewStyle
	focused := textarea.StyleState{
		Base:             n(),
		Text:             p.fg(n(), t.UserText),
		LineNumber:       p.fg(n(), t.Subtle),
		CursorLineNumber: p.fg(n(), t.Muted),
		CursorLine:       p.fg(n(), t.UserText), // no background: a full-width bar is noise
		EndOfBuffer:      p.fg(n(), t.Subtle),
		Placeholder:      p.fg(n(), t.Subtle),
		Prompt:           p.fg(n(), t.Accent),
		Selection:        p.bg(p.fg(n(), t.SelectionText), t.Selection),
	}
	blurred := focused
	blurred.Text = p.fg(n(), t.Muted)
	blurred.CursorLine = p.fg(n(), t.Muted)
	blurred.Prompt = p.fg(n(), t.Subtle)
	if p.noColor {
		focused.Selection = n().Reverse(true)
		blurred.Selection = n().Reverse(true)
		blurred.Text = n().Faint(true)
		blurred.CursorLine = n().Faint(true)
		focused.Placeholder = n().Faint(true)
		blurred.Placeholder = n().Faint(true)
	}
	st := textarea.Styles{Focused: focused, Blurred: blurred}
	st.Cursor.Blink = true
	if c, ok := t.Accent.lip(); ok && !p.noColor {
		st.Cursor.Color = c
	}
	return st
}

// HasColor reports whether c is a colour a style would paint with: lipgloss
// reports an unset colour as NoColor, never nil.
func HasColor(c color.Color) bool {
	if c == nil {
		return false
	}
	_, none := c.(lipgloss.NoColor)
	return !none
}
