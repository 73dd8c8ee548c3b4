package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"parley/api"
	"parley/conversation"
	"parley/ui/cells"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// chooseBranch is what the branch list is for: the branches of the
// conversation (every path from the first message to a last one), each
// item's value the id of its last message; choosing one shows it and
// makes it what the model sees.
type chooseBranch struct{}

// branchSnippet bounds the text a branch row carries: the row shows one
// line of it, and a filter over a whole pasted essay helps nobody.
const branchSnippet = 200

// branchItems describes each branch by where it starts to differ from the
// others: the edited question, or the regenerated reply, with the model
// that answered and when, so two replies at the same place are told apart
// even when they have no text. It reads one message a branch, never a
// branch's path, so thousands of branches list at once. now is the
// clock's time, to say a time of today by its hour.
func branchItems(conv *conversation.Conversation, now time.Time) []overlay.PickerItem {
	bs := conv.Tree().Branches()
	items := make([]overlay.PickerItem, 0, len(bs))
	for i, b := range bs {
		msg, _ := conv.ByID(b.From)
		items = append(items, overlay.PickerItem{
			Value:   strconv.Itoa(b.Leaf),
			Title:   fmt.Sprintf("%d. %s", i+1, branchTitle(msg)),
			Detail:  branchDetail(msg, b.FromAt+1, b.Len, now),
			Current: b.Active,
		})
	}
	return items
}

// branchDetail says who wrote the message a branch starts at and when,
// then where it is: "gpt-4o · 14:05:09 · at message 3 of 4". A question
// has no model; a message without a time (none was kept) says only where.
func branchDetail(msg conversation.Message, at, of int, now time.Time) string {
	parts := make([]string, 0, 3)
	if msg.Role != api.RoleUser && msg.Model != "" {
		parts = append(parts, cells.OneLine(msg.Model))
	}
	if !msg.Created.IsZero() {
		parts = append(parts, branchTime(msg.Created, now))
	}
	parts = append(parts, fmt.Sprintf("at message %d of %d", at, of))
	return strings.Join(parts, " · ")
}

// branchTime says when a message was written: to the second today (two
// regenerations a minute apart differ), with the day this year, and with
// the date before.
func branchTime(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04:05")
	case t.Year() == now.Year():
		return t.Format("Jan 2 15:04")
	}
	return t.Format("2006-01-02 15:04")
}

// branchTitle is one line naming a message: a question, a reply or an
// image turn by its first words as plain text (plainWords). Only the start of a long text is
// read: the row shows branchSnippet runes of it.
func branchTitle(msg conversation.Message) string {
	head := msg.Text
	if cut := branchSnippet * utf8.UTFMax; len(head) > cut {
		for cut > 0 && !utf8.RuneStart(head[cut]) {
			cut--
		}
		head = head[:cut]
	}
	text := []rune(plainWords(head))
	if len(text) > branchSnippet {
		text = append(text[:branchSnippet], '…')
	} else if len(head) < len(msg.Text) {
		text = append(text, '…')
	}
	if len(text) == 0 && msg.Role != api.RoleUser {
		text = []rune(noText(msg.State))
	}
	switch {
	case msg.IsImages():
		return "images: " + string(text)
	case msg.Role == api.RoleAssistant:
		return "reply: " + string(text)
	}
	return string(text)
}

// noText stands for the words of a reply or image turn that has none: how
// it ended, which is what tells it apart.
func noText(st conversation.State) string {
	switch st {
	case conversation.StateFailed:
		return "(failed before any text)"
	case conversation.StateInterrupted:
		return "(stopped before any text)"
	}
	return "(no text)"
}

// newBranchPicker lists the branches of conv, at the time now.
func newBranchPicker(ctx *uictx.Context, conv *conversation.Conversation, now time.Time) *overlay.Picker {
	items := branchItems(conv, now)
	p := overlay.NewPicker(ctx, items, overlay.PickerOptions{Title: fmt.Sprintf("Branches (%d)", len(items)), Empty: "no branches", For: chooseBranch{}, Wide: true, KeepDetail: true})
	return &p
}
