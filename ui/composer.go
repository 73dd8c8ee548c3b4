package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/api"
	"parley/themes"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// composer is the multi-line input at the bottom: a textarea that grows to
// maxComposerLines and then scrolls, the images attached to the next
// message, and the edit mode of "edit a message and resend".
//
// What it draws follows from its inputs: its content (the text and the
// attachments, numbered by gen, which every change of them advances), the
// focus, the edit mode, the model the placeholder names, the size and the
// theme. sync, at the end of every Update, redraws when their key changed;
// no handler has to remember to.
type composer struct {
	ta          textarea.Model
	attachments []api.Attachment
	// editing: the text is an edit of a sent message (editOf); sending
	// makes a new branch from there. editOrig is its text as it was.
	editing  bool
	editOf   int
	editOrig string
	// gen grows with every change of the text or the attachments.
	gen int
	// cleared is what the clear key took away, until something else is
	// typed: the key pressed again brings it back.
	cleared *clearedDraft
	// view is the cached rendering (the composer's lines, exactly its
	// rect) and viewKey the key of the inputs it was drawn from;
	// attachView is the attachment row.
	view, viewKey string
	attachView    string
	// width is the composer's outer width; boxed says whether it is drawn
	// in its box (border and one cell of padding each side).
	width int
	boxed bool
	// cur is the cached real cursor, relative to the composer's rect.
	cur *tea.Cursor
	box boxParts
	// promptKey is what the prompt was last set for (the edit mode and
	// the width): setting it re-measures every line of the text.
	promptKey string
}

// frameW is the columns the box adds around the text.
func (c *composer) frameW() int {
	if c.boxed {
		return 4
	}
	return 0
}

func newComposer() composer {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = maxComposerLines
	// MaxContentHeight bounds the text, MaxHeight only the visible rows:
	// without it the textarea refuses a 9th line.
	ta.MaxContentHeight = 100000
	ta.CharLimit = 0
	ta.SetVirtualCursor(false)
	// The root handles enter (send) and the page keys (transcript scroll).
	ta.KeyMap.PageUp.SetEnabled(false)
	ta.KeyMap.PageDown.SetEnabled(false)
	// The root's paste key reads the clipboard itself (images included).
	ta.KeyMap.Paste.SetEnabled(false)
	ta.Focus()
	return composer{ta: ta}
}

// applyKeys makes the textarea's newline key the map's newline keys.
func (c *composer) applyKeys(km keys.Map) {
	c.ta.KeyMap.InsertNewline.SetKeys(km.Newline.Keys()...)
	c.ta.KeyMap.InsertNewline.SetEnabled(km.Newline.Enabled())
}

// placeholder says which model the next message goes to, or, with no
// model yet, which key chooses one.
func placeholder(model, pickKey string) string {
	if model = cells.OneLine(model); model == "" {
		return "Message… (no model yet: " + pickKey + " chooses one)"
	}
	return "Message " + model + "…"
}

func (c *composer) setPrompt(styleGen int) {
	key := fmt.Sprintf("%v/%d/%d/%d", c.editing, c.width, c.frameW(), styleGen)
	if key == c.promptKey {
		return
	}
	c.promptKey = key
	first := "› "
	if c.editing {
		first = "✎ "
	}
	c.ta.SetPromptFunc(2, func(p textarea.PromptInfo) string {
		if p.LineNumber == 0 {
			return first
		}
		return "  "
	})
	c.ta.SetWidth(max(c.width-c.frameW(), 4))
}

// setSize sets the outer width and whether the box is drawn.
func (c *composer) setSize(w int, boxed bool) {
	c.width, c.boxed = max(w, 1), boxed
	c.ta.SetWidth(max(c.width-c.frameW(), 4))
}

// setMaxLines caps the visible rows (the layout's limit for this screen).
func (c *composer) setMaxLines(n int) {
	n = clamp(n, 1, maxComposerLines)
	if c.ta.MaxHeight != n {
		c.ta.MaxHeight = n
		c.ta.SetHeight(c.ta.Height())
		c.ta.SetWidth(max(c.width-c.frameW(), 4))
	}
}

// lines is the height the composer wants now.
func (c *composer) lines() int { return max(1, c.ta.Height()) }

func (c *composer) value() string { return c.ta.Value() }

func (c *composer) empty() bool {
	return c.ta.Length() == 0 && len(c.attachments) == 0
}

// textEmpty reports an empty text (attachments may be there). It runs
// several times a key (the action table asks it), so it looks at the
// first line only: Length measures the width of every line.
func (c *composer) textEmpty() bool { return c.ta.LineCount() <= 1 && c.ta.Length() == 0 }

func (c *composer) setValue(s string) {
	c.ta.SetValue(s)
	c.ta.MoveToEnd()
	c.gen++
}

// insert types s at the cursor.
func (c *composer) insert(s string) {
	c.ta.InsertString(s)
	c.gen++
}

// clearText empties the text and keeps the attachments (a command was
// run from the composer).
func (c *composer) clearText() {
	c.ta.Reset()
	c.gen++
}

// setAttachments replaces the images of the next message.
func (c *composer) setAttachments(atts []api.Attachment) {
	c.attachments = atts
	c.gen++
}

// edit puts a sent message (id) into the composer; sending makes a new
// branch from it, and the earlier one stays.
func (c *composer) edit(id int, text string, atts []api.Attachment) {
	c.editing, c.editOf, c.editOrig = true, id, text
	c.setValue(text)
	c.setAttachments(append([]api.Attachment(nil), atts...))
}

// abandonEdit is esc in edit mode: nothing is lost: the message in the
// conversation is unchanged, and text the user changed stays as a new
// message. It reports whether text stayed.
func (c *composer) abandonEdit() bool {
	changed := c.value() != c.editOrig
	c.leaveEdit(changed)
	return changed
}

// leaveEdit ends the edit mode; keep says whether the text stays (as a
// new message) or goes.
func (c *composer) leaveEdit(keep bool) {
	c.editing, c.editOf, c.editOrig = false, 0, ""
	if !keep {
		c.reset()
	}
	c.gen++
}

// keepLine puts a refused command line back into the composer, so
// nothing typed is lost; the attachments stay as they are. Text typed
// since (the command ran off Update) is left alone.
func (c *composer) keepLine(line string) {
	if line == "" || !c.textEmpty() {
		return
	}
	c.setValue(line)
}

// typedLine is a command line as it was typed (an alias as its command's
// name).
func typedLine(inv slash.Invocation) string {
	if inv.Name == "" {
		return ""
	}
	line := "/" + inv.Name
	if inv.Args != "" {
		line += " " + inv.Args
	}
	return line
}

// clearedDraft is the text and images the clear key took away.
type clearedDraft struct {
	text string
	atts []api.Attachment
	gen  int // the composer's gen right after the clear
}

// clearAll empties the composer, text and attachments, and keeps them for
// the clear key's second press; on an empty composer it brings back what
// the last clear took, if nothing was typed since. It reports what it did.
func (c *composer) clearAll() string {
	if c.empty() {
		if d := c.cleared; d != nil && d.gen == c.gen {
			c.cleared = nil
			c.setValue(d.text)
			c.setAttachments(d.atts)
			return "restored"
		}
		return ""
	}
	d := &clearedDraft{text: c.value(), atts: c.attachments}
	c.ta.Reset()
	c.setAttachments(nil)
	d.gen = c.gen
	c.cleared = d
	return "cleared"
}

// reset empties the composer after a send.
func (c *composer) reset() {
	c.ta.Reset()
	c.attachments = nil
	c.editing, c.editOf, c.editOrig = false, 0, ""
	c.gen++
}

func (c *composer) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if !c.ta.Focused() {
		// The key that gives the composer the focus back (from the
		// message cursor or a pane) is typed here before the next sync
		// draws it focused.
		c.ta.Focus()
	}
	c.ta, cmd = c.ta.Update(msg)
	c.gen++
	return cmd
}

// composerLook is what the composer's drawing depends on besides its
// content.
type composerLook struct {
	textH   int
	focused bool
	// placeholder is the line an empty composer shows.
	placeholder string
}

// sync redraws the composer when its inputs changed since the last draw:
// the focus and the edit mode reach the textarea here, and only here. It
// runs at the end of every Update.
func (c *composer) sync(ctx *uictx.Context, in composerLook) {
	key := fmt.Sprintf("%d/%d/%v/%d/%v/%v/%d/%s", c.gen, c.width, c.boxed, in.textH, in.focused, c.editing, ctx.StyleGen, in.placeholder)
	if key == c.viewKey {
		return
	}
	c.viewKey = key
	if in.focused != c.ta.Focused() {
		if in.focused {
			c.ta.Focus()
		} else {
			c.ta.Blur()
		}
	}
	c.ta.Placeholder = in.placeholder
	c.ta.SetStyles(ctx.Styles.Textarea)
	c.setPrompt(ctx.StyleGen)
	c.render(ctx, in.textH)
}

// render draws the text rows and the attachment row; textH is the number
// of text rows the layout gave the composer.
func (c *composer) render(ctx *uictx.Context, textH int) {
	inner := max(c.width-c.frameW(), 1)
	lines := strings.Split(strings.TrimSuffix(c.ta.View(), "\n"), "\n")
	if c.boxed {
		box := ctx.Styles.ComposerFocused
		if !c.ta.Focused() {
			box = ctx.Styles.ComposerBlurred
		}
		key := fmt.Sprintf("%d/%d/%v", c.width, ctx.StyleGen, c.ta.Focused())
		c.view = c.drawBox(box, key, lines, c.width, textH)
	} else {
		c.view = cells.Block(lines, inner, textH)
	}
	c.attachView = renderChips(ctx, c.attachments, c.width, keyOf(ctx.Keys.RemoveAttachment))
	c.cur = c.ta.Cursor()
	if c.cur != nil && c.boxed {
		c.cur.Position.X += 2
		c.cur.Position.Y++
	}
}

// cursor returns a copy of the real cursor relative to the composer's
// rect (nil when the composer is not focused).
func (c *composer) cursor() *tea.Cursor {
	if c.cur == nil {
		return nil
	}
	cur := *c.cur
	return &cur
}

// boxParts are the painted pieces of the composer's frame for one width
// and style; they change only on resize, focus or theme change.
type boxParts struct {
	key         string
	top, bottom string
	left, right string
	paint       lipgloss.Style
	border      lipgloss.Border
}

// drawBox draws lines in st's border with one cell of padding each side,
// w cells wide and textH text rows tall. It draws the frame itself from
// cached pieces instead of calling st.Render, which measures and wraps the
// whole text again and costs more than the rest of a keystroke.
func (c *composer) drawBox(st lipgloss.Style, key string, lines []string, w, textH int) string {
	if c.box.key != key {
		b := st.GetBorderStyle()
		paint := lipgloss.NewStyle()
		if fg := st.GetBorderTopForeground(); themes.HasColor(fg) {
			paint = paint.Foreground(fg)
		}
		c.box = boxParts{
			key:    key,
			top:    paint.Render(b.TopLeft + strings.Repeat(b.Top, max(w-2, 0)) + b.TopRight),
			bottom: paint.Render(b.BottomLeft + strings.Repeat(b.Bottom, max(w-2, 0)) + b.BottomRight),
			left:   paint.Render(b.Left) + " ",
			right:  " " + paint.Render(b.Right),
			paint:  paint,
			border: b,
		}
	}
	bottom := c.box.bottom
	if n := c.ta.LineCount(); n > textH {
		// More lines than the box shows: say where the cursor is and how
		// many there are, on the bottom border.
		label := " line " + itoa(c.ta.Line()+1) + " of " + itoa(n) + " "
		if lw := cells.Width(label); lw+4 <= w {
			b := c.box.border
			bottom = c.box.paint.Render(b.BottomLeft+strings.Repeat(b.Bottom, w-3-lw)) + label + c.box.paint.Render(b.Bottom+b.BottomRight)
		}
	}
	inner := max(w-4, 1)
	var out strings.Builder
	out.WriteString(c.box.top)
	for i := 0; i < textH; i++ {
		out.WriteByte('\n')
		out.WriteString(c.box.left)
		if i < len(lines) {
			out.WriteString(cells.Fit(lines[i], inner))
		} else {
			out.WriteString(strings.Repeat(" ", inner))
		}
		out.WriteString(c.box.right)
	}
	out.WriteByte('\n')
	out.WriteString(bottom)
	return out.String()
}
