package keys

import "charm.land/bubbles/v2/key"

// GroupMessages is the help group of the message cursor's keys.
const GroupMessages = "Selected message (esc in an empty composer)"

// cursorHelp are the message cursor's keys. They are fixed, not in
// [keys]: they act only while a message is selected, where no composer
// key competes for them, and single letters there are what people expect
// from a list.
var cursorHelp = [][2]string{
	{"↑/↓", "previous / next message (also k/j)"},
	{"home/end", "first / last message (also g/G)"},
	{"y", "copy it as Markdown"},
	{"1…9", "copy its code block N"},
	{"e/enter", "edit your message as a new branch"},
	{"r", "regenerate the reply, keeping the old one"},
	{"←/→", "switch between its alternatives, ‹ 2/3 › (also h/l)"},
	{"f", "fork a new session up to it"},
	{"d", "leave its turn out of what the model sees; again brings it back"},
	{"esc", "back to the composer; any other key is typed there"},
}

// messageGroup is the help group of the message cursor.
func messageGroup() Group { return fixedGroup(GroupMessages, cursorHelp) }

// fixedGroup is a help group of keys a part binds itself (not through the
// keymap): each pair is the key as shown and what it does.
func fixedGroup(title string, help [][2]string) Group {
	g := Group{Title: title}
	for _, h := range help {
		g.Bindings = append(g.Bindings, key.NewBinding(key.WithKeys(h[0]), key.WithHelp(h[0], h[1])))
	}
	return g
}

// GroupImagePane is the help group of the image pane's keys.
const GroupImagePane = "Image pane (when it has the keys)"

// imagePaneHelp are the image pane's keys, fixed like the cursor's: the
// pane's own hint line leaves some out when it is narrow, and the help
// lists them all.
var imagePaneHelp = [][2]string{
	{"↑/↓", "choose an image (also k/j, home/end, g/G)"},
	{"a", "attach it to the next message"},
	{"o", "open it in the image viewer"},
	{"c", "copy its file's path"},
	{"y", "copy the image"},
	{"s", "save a copy (proposes a name that does not exist yet)"},
	{"e", "edit it with /edit"},
	{"esc", "back to the composer"},
}

// imagePaneGroup is the help group of the image pane.
func imagePaneGroup() Group { return fixedGroup(GroupImagePane, imagePaneHelp) }
