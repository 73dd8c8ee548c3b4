package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/internal/bytesize"
	"parley/ui/cells"
	"parley/ui/paste"
)

// Text that would make the composer pass its bound (composer_bound.go)
// never goes into it: it goes on the message as a block, a text
// attachment like a text file (a chip, sent as a fenced text part, stored
// by hash, removed with the remove-attachment key), and the smaller text
// the composer held stays where it was. These are functions of the root
// model, not methods: the root keeps its method count.

// takeText puts text that arrives at once (a paste, the clipboard, dropped
// paths that were not files after all) into the composer at the cursor,
// or on the message as a block when the composer would pass its bound.
func takeText(m *Model, text string) tea.Cmd {
	// A CRLF is one line break, not the two the textarea would make.
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if m.comp.fits(text) {
		m.comp.insert(text)
		return nil
	}
	cmd, _ := attachBlock(m, text, "pasted", "the pasted text")
	return cmd
}

// takeEditorText replaces the composer's text with the editor's; a text
// past the bound goes on the message as a block and the composer empties
// (the editor had its text). When the block is refused the composer stays
// as it was, and the sentence says so.
func takeEditorText(m *Model, text string) tea.Cmd {
	if withinBound(len(text), textLines(text)) {
		m.comp.setValue(text)
		return nil
	}
	cmd, ok := attachBlock(m, text, "editor", "the editor's text")
	if ok {
		m.comp.clearText()
	}
	return cmd
}

// editMessage puts a sent message into the composer to be edited as a
// new branch. A text past the bound (sent before the composer had one, or
// with ask) comes back as a block, whole.
func editMessage(m *Model, id int, text string, atts []api.Attachment) tea.Cmd {
	if withinBound(len(text), textLines(text)) {
		m.comp.edit(id, text, atts)
		return nil
	}
	m.comp.edit(id, "", atts)
	return keepAsBlock(m, text, "message", "the message's text")
}

// restoreDraft puts a reopened session's draft text into the composer; a
// draft saved before the composer had its bound may pass it, and comes
// back as a block, whole.
func restoreDraft(m *Model, text string) tea.Cmd {
	if withinBound(len(text), textLines(text)) {
		m.comp.setValue(text)
		return nil
	}
	return keepAsBlock(m, text, "draft", "the draft's text")
}

// keepAsBlock puts text that was the composer's (a draft, a sent message)
// on the message as a block. It is never refused: the message held that
// text already, and the caps on what a message carries are for what is
// added to it. Put back into the composer instead, it would be cut (the
// textarea keeps 10,000 lines) and every key would cost seconds.
func keepAsBlock(m *Model, text, prefix, what string) tea.Cmd {
	b := paste.Block(text, prefix, m.comp.attachments)
	m.comp.setAttachments(append(m.comp.attachments, b))
	return m.notify(fmt.Sprintf("%s (%s) is longer than the composer holds, so it is attached as a block", what, blockSize(b)), toastInfo)
}

// typeKey types a key into the composer, unless it would pass the bound:
// then nothing changes and a notice says what to do instead.
func typeKey(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	if m.comp.refusesKey(msg, &m.ctx.Keys) {
		return m.notify(fmt.Sprintf("the composer holds at most %d lines and %s; paste longer text (it is attached as a block), write it in the editor (%s) or attach it as a file",
			composerMaxLines, bytesize.Format(composerMaxBytes), firstKey(m.ctx.Keys.Editor, "ctrl+x")), toastWarn)
	}
	return m.comp.update(msg)
}

// attachBlock puts text on the message as a block (prefix-N.txt), within
// attach_max_count and attach_max_text_total; what refuses it says so in
// one sentence, and the composer's text and attachments stay as they
// were. what names the text in the notices ("the pasted text"). It
// reports whether the block was attached.
func attachBlock(m *Model, text, prefix, what string) (tea.Cmd, bool) {
	b := paste.Block(text, prefix, m.comp.attachments)
	if why, kind := blockRefusal(m, b, what); why != "" {
		return m.notify(why, kind), false
	}
	m.comp.setAttachments(append(m.comp.attachments, b))
	return m.notify(fmt.Sprintf("%s (%s) is attached as a block; it is sent with your message", what, blockSize(b)), toastOK), true
}

// blockSize is a block's lines and bytes: "13,107 lines, 1.0 MB".
func blockSize(b api.Attachment) string {
	return fmt.Sprintf("%s %s, %s", bytesize.Digits(int64(b.Lines)), plural(b.Lines, "line", "lines"), bytesize.Format(int64(b.Bytes)))
}

// blockRefusal says why block b cannot go on the message (the same text
// is there already, no room left, too much text), or "".
func blockRefusal(m *Model, b api.Attachment, what string) (string, toastKind) {
	if i := slices.IndexFunc(m.comp.attachments, func(a api.Attachment) bool { return a.IsText() && a.SHA256 == b.SHA256 }); i >= 0 {
		return fmt.Sprintf("%s (%s) is attached already, as %s", what, blockSize(b), cells.OneLine(m.comp.attachments[i].Name)), toastInfo
	}
	if n := m.opts.maxAttachments(); len(m.comp.attachments) >= n {
		return fmt.Sprintf("%s (%s) is too long for the composer and the message already carries %d attachments, the most it may (attach_max_count); remove one or send the text in another message",
			what, blockSize(b), n), toastErr
	}
	if why := blockTotal(attachLimits(m.opts, &m.pics), m.comp.attachments, b, what); why != "" {
		return why, toastErr
	}
	return "", toastInfo
}

// blockTotal refuses a block that would bring the message's text
// attachments past attach_max_text_total, as one sentence ("" when it
// fits). A block is not a file, so attach_max_text_bytes does not apply.
func blockTotal(lim api.AttachLimits, have []api.Attachment, b api.Attachment, what string) string {
	limit := int64(cmp.Or(lim.MaxTextTotal, api.DefaultAttachMaxTextTotal))
	others, n := api.TextBytes(have)
	total := others + int64(len(b.Data))
	if total <= limit {
		return ""
	}
	sz, lm := bytesize.Pair(total, limit)
	if n == 0 {
		return fmt.Sprintf("%s is %s, more than one message sends (%s, attach_max_text_total in the config); send a part of it or raise the limit, and your message stays as it was", what, sz, lm)
	}
	return fmt.Sprintf("%s (%s) and the %d text %s already attached come to %s, more than one message sends (%s, attach_max_text_total in the config); send it in another message or raise the limit, and your message stays as it was",
		what, bytesize.Format(int64(len(b.Data))), n, plural(n, "attachment", "attachments"), sz, lm)
}
