package ui

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// branchLayer lists the branches of the conversation (every path from the
// first message to a last one); choosing one shows it and makes it what
// the model sees.
type branchLayer struct {
	p  overlay.Picker
	km *keys.Map
}

// branchChosen closes the branch list and switches to the branch ending at
// leaf.
type branchChosen struct{ leaf int }

func (l *branchLayer) SetSize(w, h int)         { l.p.SetSize(w, h) }
func (l *branchLayer) Draw() (string, int, int) { return l.p.Box() }
func (l *branchLayer) Hints() []uictx.Hint      { return pickerHints(l.km) }

func (l *branchLayer) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	var res overlay.PickerResult
	l.p, res = l.p.Update(msg)
	switch res.Action {
	case overlay.PickerCancel:
		return nil, closeLayer{}
	case overlay.PickerChoose:
		leaf, err := strconv.Atoi(res.Item.Value)
		if err != nil {
			return nil, closeLayer{}
		}
		return nil, branchChosen{leaf: leaf}
	}
	return nil, nil
}

// branchSnippet bounds the text a branch row carries: the row shows one
// line of it, and a filter over a whole pasted essay helps nobody.
const branchSnippet = 200

// branchItems describes each branch by where it starts to differ from the
// others: the edited question, or the regenerated reply. It reads one
// message a branch, never a branch's path, so thousands of branches list
// at once.
func branchItems(conv *conversation.Conversation) []overlay.PickerItem {
	bs := conv.Tree().Branches()
	items := make([]overlay.PickerItem, 0, len(bs))
	for i, b := range bs {
		msg, _ := conv.ByID(b.From)
		items = append(items, overlay.PickerItem{
			Value:   strconv.Itoa(b.Leaf),
			Title:   fmt.Sprintf("%d. %s", i+1, branchTitle(msg)),
			Detail:  fmt.Sprintf("at message %d of %d", b.FromAt+1, b.Len),
			Current: b.Active,
		})
	}
	return items
}

// branchTitle is one line naming a message: a question as written, a
// reply or an image turn by what it says. Only the start of a long text is
// read: the row shows branchSnippet runes of it.
func branchTitle(msg conversation.Message) string {
	head := msg.Text
	if cut := branchSnippet * utf8.UTFMax; len(head) > cut {
		for cut > 0 && !utf8.RuneStart(head[cut]) {
			cut--
		}
		head = head[:cut]
	}
	text := []rune(cells.OneLine(head))
	if len(text) > branchSnippet {
		text = append(text[:branchSnippet], '…')
	} else if len(head) < len(msg.Text) {
		text = append(text, '…')
	}
	switch {
	case msg.IsImages():
		return "images: " + string(text)
	case msg.Role == api.RoleAssistant:
		return "reply: " + string(text)
	}
	return string(text)
}

// newBranchLayer lists the branches of conv.
func newBranchLayer(ctx *uictx.Context, conv *conversation.Conversation) *branchLayer {
	items := branchItems(conv)
	return &branchLayer{
		p:  overlay.NewPicker(ctx, items, overlay.PickerOptions{Title: fmt.Sprintf("Branches (%d)", len(items)), Empty: "no branches"}),
		km: &ctx.Keys,
	}
}

// switchBranch shows the branch ending at leaf.
func (m *Model) switchBranch(leaf int) tea.Cmd {
	if err := m.eng.Conv().SwitchTo(leaf); err != nil {
		return m.notes.show(treeRefusal(err))
	}
	m.focus.toComposer()
	m.tr.List().Bottom()
	return m.tickIfNeeded()
}
