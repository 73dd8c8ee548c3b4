package keys

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// context says where a binding is live; two actions of one context may not
// share a key.
type context int

const (
	ctxChat context = 1 << iota
	ctxList
)

// spec describes one action: its config name, field, defaults and help.
type spec struct {
	name  string
	field func(*Map) *key.Binding
	keys  []string
	desc  string
	group string
	ctx   context
	// emptyOnly: the action fires only while the composer is empty, so it may
	// share keys with the composer's editing keys.
	emptyOnly bool
}

// Help group titles, in display order.
const (
	GroupComposer   = "Composer"
	GroupReply      = "Reply"
	GroupTranscript = "Transcript"
	GroupApp        = "App"
	GroupLists      = "Lists and dialogs"
)

var groupOrder = []string{GroupComposer, GroupReply, GroupTranscript, GroupApp, GroupLists}

// specs is the immutable table of actions and their defaults.
var specs = []spec{
	{Send, func(m *Map) *key.Binding { return &m.Send }, []string{"enter"}, "send", GroupComposer, ctxChat, false},
	{Newline, func(m *Map) *key.Binding { return &m.Newline }, []string{"shift+enter", "alt+enter", "ctrl+j"}, "new line", GroupComposer, ctxChat, false},
	{EditLast, func(m *Map) *key.Binding { return &m.EditLast }, []string{"up"}, "edit last message (empty composer)", GroupComposer, ctxChat, true},
	{Paste, func(m *Map) *key.Binding { return &m.Paste }, []string{"ctrl+v"}, "paste: a screenshot is attached, text is pasted", GroupComposer, ctxChat, false},
	{Attach, func(m *Map) *key.Binding { return &m.Attach }, []string{"alt+a", "f6"}, "attach images or text files (file picker)", GroupComposer, ctxChat, false},
	{Screenshot, func(m *Map) *key.Binding { return &m.Screenshot }, []string{"alt+p"}, "take a region screenshot and attach it", GroupComposer, ctxChat, false},
	{ImageForm, func(m *Map) *key.Binding { return &m.ImageForm }, []string{"alt+g"}, "make images (a form; or /image PROMPT)", GroupApp, ctxChat, false},
	{Images, func(m *Map) *key.Binding { return &m.Images }, []string{"alt+i"}, "image pane: browse, open, copy, attach, edit", GroupApp, ctxChat, false},
	{RemoveAttachment, func(m *Map) *key.Binding { return &m.RemoveAttachment }, []string{"alt+x"}, "remove the last attachment", GroupComposer, ctxChat, false},
	{ClearComposer, func(m *Map) *key.Binding { return &m.ClearComposer }, []string{"alt+k"}, "clear the message and its attachments (again: bring them back)", GroupComposer, ctxChat, false},
	{Editor, func(m *Map) *key.Binding { return &m.Editor }, []string{"ctrl+x"}, "compose in $EDITOR", GroupComposer, ctxChat, false},
	{Cancel, func(m *Map) *key.Binding { return &m.Cancel }, []string{"esc"}, "stop the reply / leave edit", GroupReply, ctxChat, false},
	{Retry, func(m *Map) *key.Binding { return &m.Retry }, []string{"ctrl+r"}, "retry / regenerate", GroupReply, ctxChat, false},
	{CopyReply, func(m *Map) *key.Binding { return &m.CopyReply }, []string{"ctrl+y"}, "copy reply (Markdown)", GroupReply, ctxChat, false},
	{CopyCode, func(m *Map) *key.Binding { return &m.CopyCode }, []string{"alt+1", "alt+2", "alt+3", "alt+4", "alt+5", "alt+6", "alt+7", "alt+8", "alt+9"}, "copy code block N", GroupReply, ctxChat, false},
	{ScrollUp, func(m *Map) *key.Binding { return &m.ScrollUp }, []string{"pgup"}, "page up", GroupTranscript, ctxChat, false},
	{ScrollDown, func(m *Map) *key.Binding { return &m.ScrollDown }, []string{"pgdown"}, "page down", GroupTranscript, ctxChat, false},
	{ToggleThinking, func(m *Map) *key.Binding { return &m.ToggleThinking }, []string{"ctrl+t"}, "fold / unfold the replies' thinking (empty composer)", GroupTranscript, ctxChat, true},
	{ScrollTop, func(m *Map) *key.Binding { return &m.ScrollTop }, []string{"home"}, "top (empty composer)", GroupTranscript, ctxChat, true},
	{ScrollBottom, func(m *Map) *key.Binding { return &m.ScrollBottom }, []string{"end"}, "bottom (empty composer)", GroupTranscript, ctxChat, true},
	{LineUp, func(m *Map) *key.Binding { return &m.LineUp }, []string{"ctrl+up", "alt+up"}, "one line up", GroupTranscript, ctxChat, false},
	{LineDown, func(m *Map) *key.Binding { return &m.LineDown }, []string{"ctrl+down", "alt+down"}, "one line down", GroupTranscript, ctxChat, false},
	{ModelPicker, func(m *Map) *key.Binding { return &m.ModelPicker }, []string{"ctrl+o"}, "choose model", GroupApp, ctxChat, false},
	{ThemePicker, func(m *Map) *key.Binding { return &m.ThemePicker }, []string{"f3", "alt+t"}, "choose theme", GroupApp, ctxChat, false},
	{NewConversation, func(m *Map) *key.Binding { return &m.NewConversation }, []string{"ctrl+l"}, "new conversation", GroupApp, ctxChat, false},
	{Help, func(m *Map) *key.Binding { return &m.Help }, []string{"f1"}, "help (also /help)", GroupApp, ctxChat, false},
	{ToggleMouse, func(m *Map) *key.Binding { return &m.ToggleMouse }, []string{"f2"}, "mouse wheel on/off", GroupApp, ctxChat, false},
	{Sessions, func(m *Map) *key.Binding { return &m.Sessions }, []string{"alt+s", "f5"}, "sessions: open, search, rename, delete", GroupApp, ctxChat, false},
	{Notices, func(m *Map) *key.Binding { return &m.Notices }, []string{"f4"}, "notices (messages shown so far)", GroupApp, ctxChat, false},
	{Interrupt, func(m *Map) *key.Binding { return &m.Interrupt }, []string{"ctrl+c"}, "stop; twice: quit", GroupApp, ctxChat | ctxList, false},
	{Quit, func(m *Map) *key.Binding { return &m.Quit }, []string{"ctrl+q"}, "quit", GroupApp, ctxChat | ctxList, false},
	{ListUp, func(m *Map) *key.Binding { return &m.ListUp }, []string{"up", "ctrl+p"}, "previous", GroupLists, ctxList, false},
	{ListDown, func(m *Map) *key.Binding { return &m.ListDown }, []string{"down", "ctrl+n"}, "next", GroupLists, ctxList, false},
	{Select, func(m *Map) *key.Binding { return &m.Select }, []string{"enter"}, "choose", GroupLists, ctxList, false},
	{Close, func(m *Map) *key.Binding { return &m.Close }, []string{"esc"}, "close", GroupLists, ctxList, false},
}

// helpKeys is the key column of the help: every key, with the digits of
// copy_code folded into one "alt+1…9".
func helpKeys(s spec, keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	if s.name == CopyCode {
		return foldDigits(keys)
	}
	return strings.Join(keys, "/")
}

// foldDigits shows "alt+1", …, "alt+9" as "alt+1…9".
func foldDigits(keys []string) string {
	byPrefix := map[string][]int{}
	var order []string
	var other []string
	for _, k := range keys {
		d := CodeBlockDigit(k)
		if d == 0 {
			other = append(other, k)
			continue
		}
		p := k[:len(k)-1]
		if _, ok := byPrefix[p]; !ok {
			order = append(order, p)
		}
		byPrefix[p] = append(byPrefix[p], d)
	}
	var parts []string
	for _, p := range order {
		ds := byPrefix[p]
		if len(ds) == 1 {
			parts = append(parts, p+string(rune('0'+ds[0])))
			continue
		}
		parts = append(parts, p+string(rune('0'+ds[0]))+"…"+string(rune('0'+ds[len(ds)-1])))
	}
	for _, k := range other {
		parts = append(parts, k+" 1…9")
	}
	return strings.Join(parts, "/")
}

// Group is one titled block of the help overlay.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups returns the help groups built from the live bindings (unbound
// actions are left out), and the fixed keys of the message cursor and of
// the image pane last.
func (m Map) Groups() []Group {
	var out []Group
	for _, title := range groupOrder {
		g := Group{Title: title}
		for _, s := range specs {
			if s.group != title {
				continue
			}
			b := *s.field(&m)
			if b.Enabled() {
				g.Bindings = append(g.Bindings, b)
			}
		}
		if len(g.Bindings) > 0 {
			out = append(out, g)
		}
	}
	return append(out, messageGroup(), imagePaneGroup())
}

// ForTerminal returns the map with help text adjusted to what the terminal
// reports: keys that need keyboard enhancements (shift+enter) are left out
// of the help when the terminal does not report them. Matching is unchanged.
func (m Map) ForTerminal(enhanced bool) Map {
	for _, s := range specs {
		b := s.field(&m)
		var shown []string
		for _, k := range b.Keys() {
			if !enhanced && needsEnhancement(k) {
				continue
			}
			shown = append(shown, k)
		}
		b.SetHelp(helpKeys(s, shown), b.Help().Desc)
	}
	return m
}

// needsEnhancement reports keys a legacy terminal cannot send.
func needsEnhancement(k string) bool {
	switch k {
	case "shift+enter", "ctrl+enter", "ctrl+shift+enter", "alt+shift+enter":
		return true
	}
	return false
}
