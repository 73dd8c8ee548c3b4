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
	"parley/ui/keys"
	"parley/ui/paste"
)

// Text that would make the composer pass its bound (composer_bound.go)
// never goes into it: it goes on the message as a block, a text
// attachment like a text file (a chip, sent as a fenced text part, stored
// by hash, removed with the remove-attachment key), and the smaller text
// the composer held stays where it was. The composer decides and reports
// what the user is to be told as a noticeResult (zero when nothing); the
// root says it.

// blockRoom is what bounds the blocks a message may carry:
// attach_max_count and the text caps.
type blockRoom struct {
	maxCount int
	lim      api.AttachLimits
}

// takeText puts text that arrives at once (a paste, the clipboard, dropped
// paths that were not files after all) into the composer at the cursor,
// or on the message as a block when the composer would pass its bound.
func (c *composer) take(text string, room blockRoom) noticeResult {
	// A CRLF is one line break, not the two the textarea would make.
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if c.fits(text) {
		c.insert(text)
		return noticeResult{}
	}
	n, _ := c.attachBlock(text, "pasted", "the pasted text", room)
	return n
}

// takeEditorText replaces the composer's text with the editor's; a text
// past the bound goes on the message as a block and the composer empties
// (the editor had its text). When the block is refused the composer stays
// as it was, and the sentence says so.
func (c *composer) takeEditorText(text string, room blockRoom) noticeResult {
	if withinBound(len(text), textLines(text)) {
		c.setValue(text)
		return noticeResult{}
	}
	n, ok := c.attachBlock(text, "editor", "the editor's text", room)
	if ok {
		c.clearText()
	}
	return n
}

// editMessage puts a sent message into the composer to be edited as a
// new branch. A text past the bound (sent before the composer had one, or
// with ask) comes back as a block, whole.
func (c *composer) editMessage(id int, text string, atts []api.Attachment) noticeResult {
	if withinBound(len(text), textLines(text)) {
		c.edit(id, text, atts)
		return noticeResult{}
	}
	c.edit(id, "", atts)
	return c.keepAsBlock(text, "message", "the message's text")
}

// restoreDraft puts a reopened session's draft text into the composer; a
// draft saved before the composer had its bound may pass it, and comes
// back as a block, whole.
func (c *composer) restoreDraft(text string) noticeResult {
	if withinBound(len(text), textLines(text)) {
		c.setValue(text)
		return noticeResult{}
	}
	return c.keepAsBlock(text, "draft", "the draft's text")
}

// keepAsBlock puts text that was the composer's (a draft, a sent message)
// on the message as a block. It is never refused: the message held that
// text already, and the caps on what a message carries are for what is
// added to it. Put back into the composer instead, it would be cut (the
// textarea keeps 10,000 lines) and every key would cost seconds.
func (c *composer) keepAsBlock(text, prefix, what string) noticeResult {
	b := paste.Block(text, prefix, c.attachments)
	c.setAttachments(append(c.attachments, b))
	return noticeResult{fmt.Sprintf("%s (%s) is longer than the composer holds, so it is attached as a block", what, blockSize(b)), toastInfo}
}

// typeKey types a key into the composer, unless it would pass the bound:
// then nothing changes and a notice says what to do instead.
func (c *composer) typeKey(msg tea.KeyPressMsg, km *keys.Map) (tea.Cmd, noticeResult) {
	if c.refusesKey(msg, km) {
		return nil, noticeResult{fmt.Sprintf("the composer holds at most %d lines and %s; paste longer text (it is attached as a block), write it in the editor (%s) or attach it as a file",
			composerMaxLines, bytesize.Format(composerMaxBytes), firstKey(km.Editor, "ctrl+x")), toastWarn}
	}
	return c.update(msg), noticeResult{}
}

// attachBlock puts text on the message as a block (prefix-N.txt), within
// attach_max_count and attach_max_text_total; what refuses it says so in
// one sentence, and the composer's text and attachments stay as they
// were. what names the text in the notices ("the pasted text"). It
// reports whether the block was attached.
func (c *composer) attachBlock(text, prefix, what string, room blockRoom) (noticeResult, bool) {
	b := paste.Block(text, prefix, c.attachments)
	if why, kind := c.blockRefusal(b, what, room); why != "" {
		return noticeResult{why, kind}, false
	}
	c.setAttachments(append(c.attachments, b))
	return noticeResult{fmt.Sprintf("%s (%s) is attached as a block; it is sent with your message", what, blockSize(b)), toastOK}, true
}

// blockSize is a block's lines and bytes: "13,107 lines, 1.0 MB".
func blockSize(b api.Attachment) string {
	return fmt.Sprintf("%s %s, %s", bytesize.Digits(int64(b.Lines)), plural(b.Lines, "line", "lines"), bytesize.Format(int64(b.Bytes)))
}

// blockRefusal says why block b cannot go on the message (the same text
// is there already, no room left, too much text), or "".
func (c *composer) blockRefusal(b api.Attachment, what string, room blockRoom) (string, toastKind) {
	if i := slices.IndexFunc(c.attachments, func(a api.Attachment) bool { return a.IsText() && a.SHA256 == b.SHA256 }); i >= 0 {
		return fmt.Sprintf("%s (%s) is attached already, as %s", what, blockSize(b), cells.OneLine(c.attachments[i].Name)), toastInfo
	}
	if n := room.maxCount; len(c.attachments) >= n {
		return fmt.Sprintf("%s (%s) is too long for the composer and the message already carries %d attachments, the most it may (attach_max_count); remove one or send the text in another message",
			what, blockSize(b), n), toastErr
	}
	if why := blockTotal(room.lim, c.attachments, b, what); why != "" {
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
