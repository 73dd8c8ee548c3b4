// Package keys is parley's key map: one key.Binding per user action, the
// defaults, overrides from the config file's [keys] table with the problems
// found in them, and the help groups the help overlay shows.
//
// The defaults stay clear of the composer's readline-style editing keys
// (ctrl+a/b/d/e/f/g/k/n/p/t/u/v/w, alt+…), of keys legacy terminals cannot
// tell apart (ctrl+i is tab, ctrl+m is enter, ctrl+h is backspace, ctrl+[ is
// esc) and of keys terminals or shells often take for themselves (ctrl+s,
// ctrl+z, ctrl+\).
package keys

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Action names, as written in the config file's [keys] table.
const (
	Send             = "send"
	Newline          = "newline"
	Cancel           = "cancel"
	Interrupt        = "interrupt"
	Quit             = "quit"
	Retry            = "retry"
	EditLast         = "edit_last"
	Editor           = "editor"
	ScrollUp         = "scroll_up"
	ScrollDown       = "scroll_down"
	ScrollTop        = "scroll_top"
	ScrollBottom     = "scroll_bottom"
	LineUp           = "line_up"
	LineDown         = "line_down"
	Notices          = "notices"
	Sessions         = "sessions"
	RemoveAttachment = "remove_attachment"
	ClearComposer    = "clear_composer"
	Paste            = "paste"
	Attach           = "attach"
	Screenshot       = "screenshot"
	ToggleThinking   = "toggle_thinking"
	ImageForm        = "image_form"
	Images           = "images"
	CopyReply        = "copy_reply"
	CopyCode         = "copy_code"
	ModelPicker      = "model_picker"
	ThemePicker      = "theme_picker"
	NewConversation  = "new_conversation"
	Help             = "help"
	ToggleMouse      = "toggle_mouse"
	ListUp           = "list_up"
	ListDown         = "list_down"
	Select           = "select"
	Close            = "close"
)

// Map holds one binding per action. The root model reads it from the UI
// context; overlays read the list bindings (ListUp, ListDown, Select, Close).
type Map struct {
	// Composer.
	Send     key.Binding
	Newline  key.Binding
	EditLast key.Binding // only in an empty composer
	Editor   key.Binding
	// RemoveAttachment drops the last image attached to the next message.
	RemoveAttachment key.Binding
	// ClearComposer empties the composer (text and attachments); pressed
	// again while it is still empty, it brings them back.
	ClearComposer key.Binding
	// Paste reads the system clipboard: an image is attached, text pasted.
	Paste key.Binding
	// Attach opens the image file picker.
	Attach key.Binding
	// Screenshot takes a region screenshot and attaches it.
	Screenshot key.Binding
	// ImageForm opens the form that makes images (prompt, model, size, n).
	ImageForm key.Binding
	// Images shows or hides the image pane (and gives it the keys).
	Images key.Binding
	// Reply.
	Cancel    key.Binding
	Retry     key.Binding
	CopyReply key.Binding
	// CopyCode copies the N-th code block of the last reply: a key ending in
	// a digit 1–9 picks that block; any other key is a prefix that waits for
	// the digit.
	CopyCode key.Binding
	// Transcript.
	ScrollUp     key.Binding
	ScrollDown   key.Binding
	ScrollTop    key.Binding // only in an empty composer
	ScrollBottom key.Binding // only in an empty composer
	LineUp       key.Binding
	LineDown     key.Binding
	// ToggleThinking folds and unfolds the replies' reasoning (only in an
	// empty composer: ctrl+t transposes characters in text).
	ToggleThinking key.Binding
	// App.
	ModelPicker     key.Binding
	ThemePicker     key.Binding
	NewConversation key.Binding
	Help            key.Binding // printable keys only in an empty composer
	ToggleMouse     key.Binding
	Notices         key.Binding
	Sessions        key.Binding
	// Interrupt cancels a stream; pressed twice within a moment it quits.
	Interrupt key.Binding
	Quit      key.Binding
	// Lists and dialogs (pickers, help, setup).
	ListUp   key.Binding
	ListDown key.Binding
	Select   key.Binding
	Close    key.Binding
}

// Default returns the default key map.
func Default() Map {
	var m Map
	for _, s := range specs {
		*s.field(&m) = key.NewBinding(key.WithKeys(s.keys...), key.WithHelp(helpKeys(s, s.keys), s.desc))
	}
	return m
}

// Binding returns the binding of the named action, or false for an unknown name.
func (m Map) Binding(action string) (key.Binding, bool) {
	for _, s := range specs {
		if s.name == action {
			return *s.field(&m), true
		}
	}
	return key.Binding{}, false
}

// Actions returns every action name in the order the help shows them.
func Actions() []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.name
	}
	return out
}

// Matches reports whether the key press triggers the binding. Unlike
// key.Matches it also compares the bare keystroke, so "alt+1" matches even
// when a terminal attaches text to the key and "space" matches the space bar.
func Matches(msg tea.KeyPressMsg, b key.Binding) bool {
	if !b.Enabled() {
		return false
	}
	s, ks := msg.String(), msg.Keystroke()
	for _, k := range b.Keys() {
		if k == s || k == ks {
			return true
		}
	}
	return false
}

// Matched returns the key of the binding that the press matched ("" when none).
func Matched(msg tea.KeyPressMsg, b key.Binding) string {
	if !b.Enabled() {
		return ""
	}
	s, ks := msg.String(), msg.Keystroke()
	for _, k := range b.Keys() {
		if k == s || k == ks {
			return k
		}
	}
	return ""
}

// CodeBlockDigit returns N when k (a key of CopyCode) ends in a digit 1–9,
// so the key itself picks the block, and 0 for a prefix key.
func CodeBlockDigit(k string) int {
	if k == "" {
		return 0
	}
	if c := k[len(k)-1]; c >= '1' && c <= '9' {
		if len(k) == 1 || k[len(k)-2] == '+' {
			return int(c - '0')
		}
	}
	return 0
}

// Printable reports whether k types text (a single character without ctrl
// or alt), so an action on it can only work while the composer is empty.
func Printable(k string) bool {
	if strings.HasPrefix(k, "ctrl+") || strings.HasPrefix(k, "alt+") ||
		strings.Contains(k, "meta+") || strings.Contains(k, "super+") || strings.Contains(k, "hyper+") {
		return false
	}
	if k == "space" {
		return true
	}
	return len([]rune(k)) == 1
}

// Short returns the first key of a binding for the one-line hint, or "".
func Short(b key.Binding) string {
	if !b.Enabled() {
		return ""
	}
	return b.Help().Key
}
