package lineedit

import (
	"charm.land/bubbles/v2/textinput"

	"parley/ui/cells"
	"parley/ui/uictx"
)

// DefaultLimit is how many characters an input holds when Options.Limit
// is 0: a paste of a whole file is not a filter.
const DefaultLimit = 256

// Options configure an input.
type Options struct {
	// Prompt is drawn before the text ("› ", "search: ").
	Prompt string
	// Placeholder is drawn, muted, while the input is empty.
	Placeholder string
	// Limit is the most characters the value holds; 0 means DefaultLimit.
	Limit int
}

// Model is one single-line input. Make it with New; it starts focused.
type Model struct {
	ctx *uictx.Context
	ti  textinput.Model
	// gen is the style generation ti's styles were made for.
	gen     int
	width   int
	focused bool

	// rev changes on every change of state; it comes from a counter
	// shared by copies, so the view cache never mixes two states.
	rev uint64
	sh  *shared
}

type shared struct {
	seq  uint64
	key  viewKey
	view string
}

type viewKey struct {
	rev uint64
	gen int
	ok  bool
}

// New returns a focused, empty input that reads its styles from ctx.
func New(ctx *uictx.Context, opts Options) Model {
	ti := textinput.New()
	ti.Prompt = cells.OneLine(opts.Prompt)
	ti.Placeholder = cells.OneLine(opts.Placeholder)
	ti.CharLimit = opts.Limit
	if ti.CharLimit <= 0 {
		ti.CharLimit = DefaultLimit
	}
	ti.KeyMap = keyMap()
	ti.SetStyles(styles(ctx))
	ti.Focus()
	m := Model{ctx: ctx, ti: ti, gen: ctx.StyleGen, focused: true, sh: &shared{}}
	m.touch()
	return m
}

// touch marks a change of state (the next View draws again) and brings
// the styles up to date with the theme.
func (m *Model) touch() {
	if m.gen != m.ctx.StyleGen {
		m.ti.SetStyles(styles(m.ctx))
		m.gen = m.ctx.StyleGen
	}
	m.sh.seq++
	m.rev = m.sh.seq
}

// SetWidth sets the width View draws in, prompt included.
func (m *Model) SetWidth(w int) {
	w = max(w, 0)
	if w == m.width {
		return
	}
	m.width = w
	// textinput's width is the text's, and the cursor takes a cell after
	// the last character.
	m.ti.SetWidth(max(w-cells.Width(m.ti.Prompt)-1, 1))
	m.touch()
}

// Width is the width View draws in.
func (m Model) Width() int { return m.width }

// SetPrompt changes the prompt (sanitised to one line).
func (m *Model) SetPrompt(p string) {
	m.ti.Prompt = cells.OneLine(p)
	w := m.width
	m.width = -1
	m.SetWidth(w)
}

// SetPlaceholder changes the placeholder (sanitised to one line).
func (m *Model) SetPlaceholder(p string) {
	m.ti.Placeholder = cells.OneLine(p)
	m.touch()
}

// Value is the text (one clean line: cells.Input).
func (m Model) Value() string { return m.ti.Value() }

// SetValue replaces the text, made one clean line, and puts the cursor at
// its end.
func (m *Model) SetValue(s string) {
	m.ti.SetValue(cells.Input(s))
	m.ti.CursorEnd()
	m.touch()
}

// Position is the cursor's place in the text, in characters.
func (m Model) Position() int { return m.ti.Position() }

// SetPosition moves the cursor to character i (clamped).
func (m *Model) SetPosition(i int) {
	m.ti.SetCursor(i)
	m.touch()
}

// Reset empties the input.
func (m *Model) Reset() { m.SetValue("") }

// Focus gives the input the keys: Update edits and the cursor shows.
func (m *Model) Focus() {
	if !m.focused {
		m.focused = true
		m.ti.Focus()
		m.touch()
	}
}

// Blur takes the keys away: Update ignores input and the cursor hides.
func (m *Model) Blur() {
	if m.focused {
		m.focused = false
		m.ti.Blur()
		m.touch()
	}
}

// Focused reports whether the input has the keys.
func (m Model) Focused() bool { return m.focused }
