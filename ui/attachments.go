package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/api"
	"parley/chat"
	"parley/internal/bytesize"
	"parley/internal/desktop"
	"parley/media"
	"parley/ui/cells"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// maxChipLines bounds the attachment rows above the composer; more
// attachments are counted on the last row.
const maxChipLines = 3

// attach puts images and text files on the next message, up to
// attach_max_count (the rest are refused, and said so) and within the
// text a message may carry; added are those it took. Images a model
// cannot see are kept too (seeing says so): the user may switch models
// before sending.
func (c *composer) attach(atts []api.Attachment, room blockRoom) (added []api.Attachment, said noticeResult) {
	atts, twice := newOnly(c.attachments, atts)
	if len(atts) == 0 && len(twice) > 0 {
		return nil, noticeResult{strings.Join(twice, ", ") + " " + plural(len(twice), "is", "are") + " attached already", toastInfo}
	}
	free := room.maxCount - len(c.attachments)
	var refused int
	if len(atts) > free {
		refused = len(atts) - max(free, 0)
		atts = atts[:max(free, 0)]
	}
	if err := room.lim.CheckTextTotal(append(slices.Clone(c.attachments), atts...)); err != nil {
		// Over the text a message may carry: none of these is attached,
		// never a part of one.
		return nil, noticeResult{userSentence(err), toastErr}
	}
	c.setAttachments(append(c.attachments, atts...))
	switch {
	case refused > 0:
		return atts, noticeResult{fmt.Sprintf("a message carries at most %d attachments (attach_max_count); %d more %s not attached", room.maxCount, refused, plural(refused, "was", "were")), toastWarn}
	case len(atts) == 0:
		return nil, noticeResult{}
	}
	names := make([]string, len(atts))
	for i, a := range atts {
		names[i] = a.Describe()
	}
	text := "attached " + strings.Join(names, "; ")
	if len(twice) > 0 {
		text += "; " + strings.Join(twice, ", ") + " " + plural(len(twice), "was", "were") + " attached already"
	}
	return atts, noticeResult{text, toastOK}
}

// seeing is what to say of images just attached (added) for the model of
// the next turn: said as it is when the model sees them (or none is an
// image: text files need no vision), else the refusal as a warning, or,
// when nothing describes the model, said while the gateway is asked (ask:
// the warning, if any, comes with its answer).
func seeing(eng *chat.Engine, base context.Context, added []api.Attachment, said noticeResult) (ask tea.Cmd, _ noticeResult) {
	if said.kind != toastOK || !slices.ContainsFunc(added, isImage) {
		// A refusal (attach_max_count) says what matters first.
		return nil, said
	}
	err := eng.Catalog().Require(eng.Model(), api.CapVision)
	if err == nil {
		return nil, said
	}
	if ask := askAboutVision(eng, base, eng.Model()); ask != nil {
		return ask, said
	}
	inChat(err)
	return nil, noticeResult{err.Error(), toastWarn}
}

// newOnly keeps the attachments not on the message yet (the same name and
// bytes: the same file or screenshot again; or the same link); twice
// names the others.
func newOnly(have, add []api.Attachment) (fresh []api.Attachment, twice []string) {
	seen := map[string]bool{}
	key := func(a api.Attachment) string {
		if a.IsRemote() {
			return "url:" + a.URL
		}
		return a.Name + "\x00" + a.SHA256
	}
	for _, a := range have {
		seen[key(a)] = true
	}
	for _, a := range add {
		if k := key(a); seen[k] {
			twice = append(twice, cells.OneLine(a.Name))
			continue
		} else {
			seen[k] = true
		}
		fresh = append(fresh, a)
	}
	return fresh, twice
}

// remove drops attachment i (the last when i < 0).
func (c *composer) remove(i int) noticeResult {
	n := len(c.attachments)
	if n == 0 {
		return noticeResult{"there is no attachment to remove", toastInfo}
	}
	if i < 0 || i >= n {
		i = n - 1
	}
	a := c.attachments[i]
	c.setAttachments(append(c.attachments[:i:i], c.attachments[i+1:]...))
	return noticeResult{"removed " + cells.OneLine(a.Name), toastInfo}
}

// attachLines is the rows the chips take.
func attachLines(n int) int { return min(n, maxChipLines) }

// renderChips draws the attachments above the composer, one per row: name,
// pixel size and bytes as sent, and what scaling did.
func renderChips(ctx *uictx.Context, atts []api.Attachment, w int, removeKey string) string {
	if len(atts) == 0 {
		return ""
	}
	style := ctx.Styles.Attachment
	inner := max(w-style.GetHorizontalFrameSize(), 1)
	st := chipStyle{style, inner, w}
	// More than fit: the earlier ones are counted on the first row, so the
	// newest, the one just attached, is always in view.
	first := 0
	lines := make([]string, 0, attachLines(len(atts)))
	if len(atts) > maxChipLines {
		first = len(atts) - (maxChipLines - 1)
		// Every attachment, image or text, is listed by /attached.
		hidden := "1"
		if first > 1 {
			hidden = "1–" + itoa(first)
		}
		lines = append(lines, st.render(" ▣ "+hidden+" not shown: "+itoa(first)+" more (/attached lists them all)"))
	}
	for i := first; i < len(atts); i++ {
		lines = append(lines, st.render(" "+chip(atts[i], i+1)))
	}
	// The way to remove one, on the last row when it fits.
	last := len(atts) - 1
	hint := "  " + removeKey + " removes it"
	if cells.Width(chip(atts[last], last+1))+cells.Width(hint)+2 <= inner {
		lines[len(lines)-1] = st.render(" " + chip(atts[last], last+1) + hint)
	}
	return strings.Join(lines, "\n")
}

// isImage reports an attachment that is an image (a file or a link), not
// a text file.
func isImage(a api.Attachment) bool { return !a.IsText() }

// chip is one attachment on one line.
func chip(a api.Attachment, n int) string {
	if a.IsText() {
		return fmt.Sprintf("%d ≡ %s · %d %s · %s", n, cells.OneLine(a.Name), a.Lines, plural(a.Lines, "line", "lines"), bytesize.Format(int64(a.Bytes)))
	}
	if a.IsRemote() {
		return fmt.Sprintf("%d 🔗 %s (a link, sent as is)", n, cells.OneLine(a.URL))
	}
	// What is sent: its pixels, format and size; and, when parley scaled
	// or re-encoded it, what it was.
	s := fmt.Sprintf("%d ▣ %s · %d×%d %s · %s", n, cells.OneLine(a.Name), a.Width, a.Height,
		media.FormatFromMIME(a.MIME).Name(), bytesize.Format(int64(a.Bytes)))
	if a.Resized {
		s += fmt.Sprintf(" · sent for %d×%d %s, %s", a.OrigWidth, a.OrigHeight,
			media.FormatFromMIME(a.OrigMIME).Name(), bytesize.Format(int64(a.OrigBytes)))
	}
	return s
}

// attachUpTo attaches refs (paths or links) in a command, at most as many
// as the message has room for (attach_max_count): the rest are refused at
// once, said so, and never read. With check, the refs are a paste's paths
// and are all confirmed to be images or text files first (a few bytes of
// each), so a paste that is not files to attach stays text whatever its
// count. have is how many the message carries already.
func (w *work) attachUpTo(refs []string, room blockRoom, have int, pasted string, check bool) (tea.Cmd, noticeResult) {
	keep := min(max(room.maxCount-have, 0), len(refs))
	var attach tea.Cmd
	switch {
	case check:
		attach = checkAndAttach(w.startAttaching(), refs, keep, pasted, room.lim)
	case keep > 0:
		attach = attachRefsContext(w.startAttaching(), refs[:keep], pasted, room.lim)
	}
	if keep == len(refs) {
		return attach, noticeResult{}
	}
	return attach, tooManyFiles(room.maxCount, len(refs)-keep, len(refs))
}

// tooManyFiles says that refused of n files were past attach_max_count.
func tooManyFiles(maxCount, refused, n int) noticeResult {
	return noticeResult{fmt.Sprintf("a message carries at most %d attachments (attach_max_count); %d of the %d files %s not attached",
		maxCount, refused, n, plural(refused, "was", "were")), toastWarn}
}

// attachRefsContext reads and prepares images (paths or URLs) off the UI
// goroutine (attachRefs).
func attachRefsContext(ctx context.Context, refs []string, pasted string, lim api.AttachLimits) tea.Cmd {
	return func() tea.Msg { return attachRefs(ctx, refs, pasted, lim) }
}

// attachRefs reads and prepares images (paths or URLs), one after the
// other: every one is checked from its bytes, scaled to the limits
// (within lim.Budget). pasted, when not empty, is the paste the
// references came from: on any failure it goes into the composer as
// text, so nothing pasted is lost. When ctx ends, the image being read
// stops and the rest are not read; the paste then stays text too.
func attachRefs(ctx context.Context, refs []string, pasted string, lim api.AttachLimits) attachedMsg {
	atts := make([]api.Attachment, 0, len(refs))
	for _, r := range refs {
		a, err := api.AttachContext(ctx, r, lim)
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return attachedMsg{text: pasted, err: err}
		}
		atts = append(atts, a)
	}
	return attachedMsg{atts: atts}
}

// chipStyle draws one chip row exactly w cells wide.
type chipStyle struct {
	style    lipgloss.Style
	inner, w int
}

func (c chipStyle) render(s string) string {
	return cells.Fit(c.style.Render(cells.Fit(s, c.inner)), c.w)
}

// attachedList is what /attached says: the attachments numbered as
// /detach takes them.
func attachedList(atts []api.Attachment) string {
	if len(atts) == 0 {
		return "the next message has no attachments; /attach, a paste or ctrl+v adds one"
	}
	parts := make([]string, len(atts))
	for i, a := range atts {
		parts[i] = chip(a, i+1)
	}
	return fmt.Sprintf("%d %s on the next message: %s (/detach N removes one)", len(atts), plural(len(atts), "attachment", "attachments"), strings.Join(parts, "; "))
}

// attachCommand is /attach: without paths it opens the file picker (in
// the folder it was left in), "latest" attaches the newest screenshot of
// sys, and paths or links are attached (have: how many the message
// carries already; line: the command as typed, back in the composer when
// the attaching fails).
func (w *work) attachCommand(refs []string, o Options, sys desktop.System, room blockRoom, have int, line string) (tea.Cmd, noticeResult) {
	switch {
	case len(refs) == 0:
		return findPickerFolder(o.Getenv, o.WorkDir), noticeResult{}
	case len(refs) == 1 && refs[0] == "latest":
		// The newest screenshot; a file named so is ./latest.
		dir := ""
		if o.Config != nil {
			dir = o.Config.ScreenshotsDir()
		}
		return w.grab(sys, room.lim).latest(dir), noticeResult{}
	}
	expanded := make([]string, len(refs))
	for i, r := range refs {
		expanded[i] = slash.ExpandHome(r, o.Getenv("HOME"))
	}
	return w.attachTyped(expanded, room, have, line), noticeResult{}
}
