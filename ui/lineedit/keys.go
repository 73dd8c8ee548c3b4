package lineedit

import (
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/keys"
)

// wordKeys are the word keys handled here rather than by textinput, so
// that every input agrees on what a word is.
type wordKeys struct {
	rubout, killBack, wordLeft, wordRight, killFwd key.Binding
}

func words() wordKeys {
	b := func(ks ...string) key.Binding { return key.NewBinding(key.WithKeys(ks...)) }
	return wordKeys{
		rubout:    b("ctrl+w"),
		killBack:  b("alt+backspace", "ctrl+backspace"),
		wordLeft:  b("alt+b", "alt+left", "ctrl+left"),
		wordRight: b("alt+f", "alt+right", "ctrl+right"),
		killFwd:   b("alt+d", "alt+delete", "ctrl+delete"),
	}
}

// keyMap is textinput's default key map (checked against bubbles v2.2.1:
// ctrl+a/home, ctrl+e/end, ctrl+b/left, ctrl+f/right, ctrl+u, ctrl+k,
// ctrl+d/delete, ctrl+h/backspace) without its word keys (ours), its
// clipboard read and its suggestion keys.
func keyMap() textinput.KeyMap {
	km := textinput.DefaultKeyMap()
	for _, b := range []*key.Binding{
		&km.WordForward, &km.WordBackward, &km.DeleteWordBackward, &km.DeleteWordForward,
		&km.Paste, &km.AcceptSuggestion, &km.NextSuggestion, &km.PrevSuggestion,
	} {
		b.SetEnabled(false)
	}
	return km
}

// Update edits the text with a key press or a paste while the input is
// focused; changed reports whether the text changed (the cursor may move
// without it). Keys that are not editing keys (enter, esc, tab, up, …)
// and messages of other kinds are left alone.
func (m *Model) Update(msg tea.Msg) (changed bool) {
	if !m.focused {
		return false
	}
	before, pos := m.ti.Value(), m.ti.Position()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !m.key(msg) {
			return false
		}
	case tea.PasteMsg:
		m.insert(msg.Content)
	default:
		return false
	}
	if v := m.ti.Value(); v != before || m.ti.Position() != pos {
		m.touch()
		return v != before
	}
	return false
}

// key applies one key; false when it is not an editing key.
func (m *Model) key(msg tea.KeyPressMsg) bool {
	v, pos := []rune(m.ti.Value()), m.ti.Position()
	w := words()
	switch {
	case keys.Matches(msg, w.rubout):
		m.cut(ruboutStart(v, pos), pos)
	case keys.Matches(msg, w.killBack):
		m.cut(wordStart(v, pos), pos)
	case keys.Matches(msg, w.killFwd):
		m.cut(pos, wordEnd(v, pos))
	case keys.Matches(msg, w.wordLeft):
		m.ti.SetCursor(wordStart(v, pos))
	case keys.Matches(msg, w.wordRight):
		m.ti.SetCursor(wordEnd(v, pos))
	case textinputKey(msg, m.ti.KeyMap):
		m.ti, _ = m.ti.Update(msg)
	case msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock|tea.ModNumLock) == 0:
		m.insert(msg.Text)
	default:
		return false
	}
	return true
}

// insert types text at the cursor, made one clean line, up to the limit.
func (m *Model) insert(text string) {
	if text = cells.Input(text); text != "" {
		m.ti, _ = m.ti.Update(tea.PasteMsg{Content: text})
	}
}

// cut deletes the characters from..to and leaves the cursor at from.
func (m *Model) cut(from, to int) {
	if from >= to {
		return
	}
	v := []rune(m.ti.Value())
	m.ti.SetValue(string(v[:from]) + string(v[to:]))
	m.ti.SetCursor(from)
}

// textinputKey reports whether the press is a key of textinput's map.
func textinputKey(msg tea.KeyPressMsg, km textinput.KeyMap) bool {
	for _, b := range []key.Binding{
		km.CharacterForward, km.CharacterBackward, km.DeleteAfterCursor, km.DeleteBeforeCursor,
		km.DeleteCharacterBackward, km.DeleteCharacterForward, km.LineStart, km.LineEnd,
	} {
		if keys.Matches(msg, b) {
			return true
		}
	}
	return false
}

// isWord reports whether r is part of a word for alt+b, alt+f,
// alt+backspace and alt+d: letters, digits and combining marks.
func isWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
}

// wordStart is where the word before pos starts: back over what is not a
// word, then over the word.
func wordStart(v []rune, pos int) int {
	i := pos
	for i > 0 && !isWord(v[i-1]) {
		i--
	}
	for i > 0 && isWord(v[i-1]) {
		i--
	}
	return i
}

// wordEnd is where the word after pos ends.
func wordEnd(v []rune, pos int) int {
	i := pos
	for i < len(v) && !isWord(v[i]) {
		i++
	}
	for i < len(v) && isWord(v[i]) {
		i++
	}
	return i
}

// ruboutStart is where ctrl+w deletes back to: over spaces and slashes,
// then to the previous space or slash.
func ruboutStart(v []rune, pos int) int {
	sep := func(r rune) bool { return r == ' ' || r == '/' }
	i := pos
	for i > 0 && sep(v[i-1]) {
		i--
	}
	for i > 0 && !sep(v[i-1]) {
		i--
	}
	return i
}
