package transcript

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/api"
	"parley/conversation"
	"parley/internal/bytesize"
	"parley/termsafe"
)

// Marks and words of the transcript. The user's turns carry a bar in the
// user colour on every line, the replies are indented under the model's
// name, so the two are told apart at a glance even without colour.
const (
	userBarW      = 2 // the bar and a space
	replyIndent   = "  "
	userLabel     = "You"
	replyFallback = "assistant"
	streamingMark = " · writing…"
	chipMark      = "▣ "
	textChipMark  = "≡ " // a text file, as the composer marks it
	errorMark     = "✗ "
	errorMarkPad  = "  "
	errorMarkW    = 2
	noteMark      = "! "
	emptyReply    = "(empty reply)"
	lengthNote    = "reply cut off: the model hit its length limit"
	filterNote    = "reply stopped by the gateway's content filter"
	interrupted   = "■ interrupted"
)

// renderItem renders it at the transcript's width and style generation.
func (t *Transcript) renderItem(it *item) {
	w := t.w
	sameWidth := it.rendered && !it.pending && it.w == w
	it.prepare()
	it.base = t.baseOf(it)
	it.w, it.gen, it.rendered = w, t.gen, true
	it.head = t.renderHead(it, it.head[:0])
	it.think = t.renderThink(it, it.think[:0])
	it.foot = t.renderFoot(it, it.foot[:0])
	switch {
	case it.isUser():
		it.body = t.renderUserBody(it, it.body[:0])
	case it.msg.IsImages():
		it.body = t.renderImagesBody(it, it.body[:0])
	case it.live != nil:
		it.live.md, it.live.mdStart = it.live.md[:0], it.live.mdStart[:0]
		it.body = it.body[:0]
		t.refitLive(it)
	default:
		t.renderReply(it, sameWidth)
	}
}

// renderReply renders a finished reply's text now if that fits a frame,
// and otherwise shows a stand-in until a job renders it: the lines it had
// when only the style changed (same width), else its text plain.
func (t *Transcript) renderReply(it *item, sameWidth bool) {
	if it.text == "" {
		t.setPending(it, false)
		it.body = t.fitReply(it.body[:0], nil, it.done())
		return
	}
	if !t.naive && len(it.text) > syncRenderBytes {
		t.setPending(it, true)
		if !sameWidth {
			it.body = t.fitReply(it.body[:0], t.wrap(it.text, t.mdWidth(), nil), it.done())
		}
		return
	}
	md, codes, ok := t.engine().render(t.lay(it.text), it.base)
	t.setPending(it, !ok && !t.naive)
	if ok {
		t.exactCodes(it, codes)
	}
	it.body = t.fitReply(it.body[:0], md, it.done())
}

// renderHead renders the blank separator and the label line.
func (t *Transcript) renderHead(it *item, dst []string) []string {
	lk := &t.look
	dst = append(dst, t.blank)
	var label string
	switch {
	case it.isUser():
		label = t.userBar() + lk.userLabel.Render(userLabel)
	case it.msg.IsImages():
		label = lk.replyLabel.Render(imagesLabel(it.msg))
		if it.msg.State == conversation.StateStreaming {
			label += lk.streaming.Render(makingMark)
		}
	default:
		name := t.lay(oneLine(termsafe.Sanitize(it.msg.Model)))
		if name == "" {
			name = replyFallback
		}
		label = lk.replyLabel.Render(name)
		if it.msg.State == conversation.StateStreaming {
			label += lk.streaming.Render(streamingMark)
		}
	}
	it.selMark = t.selected != 0 && it.id() == t.selected
	label += t.treeMarks(it)
	// A very long model name must not push the line past the width.
	if ansi.StringWidth(label) > t.w {
		label = ansi.Truncate(label, t.w, "…")
	}
	return fitLine(dst, "", 0, label, t.w)
}

// userBar is the coloured bar and space that start every line of a user turn.
func (t *Transcript) userBar() string {
	return t.look.bar.Render(t.look.barChar) + " "
}

// renderUserBody wraps the user's text as typed (no Markdown).
func (t *Transcript) renderUserBody(it *item, dst []string) []string {
	bar := t.userBar()
	for _, l := range t.wrap(it.text, t.proseRoom(t.w-userBarW), t.look.userText.Render) {
		dst = fitLine(dst, bar, userBarW, l, t.w)
	}
	return dst
}

// fitReply fits rendered Markdown lines under the reply indent. A reply
// that finished without any text says so (a failed or interrupted one has
// its state below instead).
func (t *Transcript) fitReply(dst []string, md []string, done bool) []string {
	if len(md) == 0 && done {
		return fitLine(dst, replyIndent, len(replyIndent), t.look.meta.Render(emptyReply), t.w)
	}
	for _, l := range md {
		dst = fitLine(dst, replyIndent, len(replyIndent), l, t.w)
	}
	return dst
}

// renderFoot renders what follows the text: attachment chips under a user
// message; the state of a reply that did not simply finish.
func (t *Transcript) renderFoot(it *item, dst []string) []string {
	lk := &t.look
	w := t.w
	it.retry = t.retryHint(it)
	if it.isUser() {
		bar := t.userBar()
		room := w - userBarW - lk.chip.GetHorizontalFrameSize()
		for _, a := range it.msg.Attachments {
			dst = fitLine(dst, bar, userBarW, lk.chip.Render(ansi.Truncate(t.lay(chip(a)), max(room, 1), "…")), w)
			for _, l := range t.pictureLines(a) {
				dst = append(dst, pictureLine(bar, l, w))
			}
		}
		return dst
	}
	m := &it.msg
	room := w - len(replyIndent)
	if m.IsImages() {
		dst = t.renderImagesFoot(it, dst)
	}
	switch m.State {
	case conversation.StateInterrupted:
		line := lk.badge.Render(interrupted)
		if it.retry {
			line += lk.hint.Render(" · " + t.retryKey + " to regenerate")
		}
		dst = fitLine(dst, replyIndent, len(replyIndent), ansi.Truncate(line, room, "…"), w)
	case conversation.StateFailed:
		msg := termsafe.Sanitize(m.Err)
		if strings.TrimSpace(msg) == "" {
			msg = "The reply failed without a reason from the gateway."
		}
		for k, l := range t.wrap(msg, room-errorMarkW, lk.errText.Render) {
			mark := lk.errMark.Render(errorMark)
			if k > 0 {
				mark = errorMarkPad
			}
			dst = fitLine(dst, replyIndent+mark, len(replyIndent)+errorMarkW, l, w)
		}
		if it.retry {
			for _, l := range t.wrap(t.retryKey+" to retry", room, lk.hint.Render) {
				dst = fitLine(dst, replyIndent, len(replyIndent), l, w)
			}
		}
	}
	var note string
	switch m.FinishReason {
	case "length":
		note = lengthNote
	case "content_filter":
		note = filterNote
	}
	if note != "" {
		for _, l := range t.wrap(noteMark+note, room, lk.note.Render) {
			dst = fitLine(dst, replyIndent, len(replyIndent), l, w)
		}
	}
	return dst
}

// chip describes an attachment in one line: "▣ shot.png · 2048×1536 · 1.2 MB",
// or for a text file, as the composer showed it, "≡ notes.md · 12 lines · 1.2 KB".
func chip(a api.Attachment) string {
	if a.Kind == api.KindText {
		name := oneLine(termsafe.Sanitize(a.Name))
		lines := "lines"
		if a.Lines == 1 {
			lines = "line"
		}
		return fmt.Sprintf("%s%s · %d %s · %s", textChipMark, name, a.Lines, lines, bytesize.Format(int64(a.Bytes)))
	}
	var b strings.Builder
	b.WriteString(chipMark)
	name := a.Name
	if a.IsRemote() && name == "" {
		name = a.URL
	}
	name = oneLine(termsafe.Sanitize(name))
	if name == "" {
		name = "image"
	}
	b.WriteString(name)
	if a.IsRemote() {
		b.WriteString(" · link")
		return b.String()
	}
	if a.Width > 0 && a.Height > 0 {
		fmt.Fprintf(&b, " · %d×%d", a.Width, a.Height)
	}
	if a.Bytes > 0 {
		b.WriteString(" · ")
		b.WriteString(bytesize.Format(int64(a.Bytes)))
	}
	if a.Resized && a.OrigWidth > 0 && a.OrigHeight > 0 &&
		(a.OrigWidth != a.Width || a.OrigHeight != a.Height) {
		fmt.Fprintf(&b, " · scaled down from %d×%d", a.OrigWidth, a.OrigHeight)
	}
	return b.String()
}

// oneLine puts sanitised text that must fit one line (a model id, a file
// name) on one line.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	return s
}
