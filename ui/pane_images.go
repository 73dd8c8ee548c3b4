package ui

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/internal/desktop"
	"parley/media"
	"parley/ui/cells"
	"parley/ui/imagepane"
	"parley/ui/preview"
)

// imagesPane is the image pane as a side pane: every image of the
// conversation (attached and made), newest first, with a large preview of
// the selected one. It takes the keys while focused (esc gives them back to
// the composer).
type imagesPane struct {
	p       imagepane.Pane
	focused bool
	// itemsKey says which state of the conversation the items were made
	// from.
	itemsKey string
	// The selected image's preview: what it needs (the item's key, its
	// bytes and the box, set by draw), what is being made, and what is
	// shown.
	needKey  string
	need     preview.Source
	needW    int
	needH    int
	asked    string
	shownKey string
	shown    []string
}

func (p *imagesPane) name() string { return "images" }

// panePreviewMsg brings the preview of the pane's selected image.
type panePreviewMsg struct {
	key string
	r   preview.Rendered
	err error
}

// paneActionMsg reports an action of the pane that ran in a command.
type paneActionMsg struct {
	text string
	kind toastKind
}

func previewKey(sum [32]byte, w, h int) string {
	return fmt.Sprintf("%x/%dx%d", sum[:8], w, h)
}

// toggleImagePane opens the image pane with the keys, gives it the keys
// when it is open without them, and closes it when it has them.
func (m *Model) toggleImagePane() tea.Cmd {
	if p, ok := m.pane.(*imagesPane); ok {
		if p.focused {
			m.pane = nil
			return nil
		}
		p.focused = true
		m.comp.ta.Blur()
		return nil
	}
	p := &imagesPane{p: imagepane.New(m.ctx), focused: true}
	home := m.opts.Getenv("HOME")
	wd, _ := os.Getwd()
	p.p.SetDirs(imagepane.Dirs{Home: home, Work: wd, Save: m.imageDir()})
	m.pane = p
	m.comp.ta.Blur()
	p.refresh(m)
	return nil
}

// imagePaneFocused reports whether the image pane has the keys.
func (m *Model) imagePaneFocused() (*imagesPane, bool) {
	p, ok := m.pane.(*imagesPane)
	return p, ok && p.focused
}

// paneSelection is the key of the image selected in the open image pane.
func (m *Model) paneSelection() (string, bool) {
	p, ok := m.pane.(*imagesPane)
	if !ok {
		return "", false
	}
	it, ok := p.p.Selected()
	return it.Key, ok
}

// refresh rebuilds the list when the conversation or the composer's
// attachments changed since it was made.
func (p *imagesPane) refresh(m *Model) {
	key := m.imagesKey()
	if key == p.itemsKey {
		return
	}
	p.itemsKey = key
	p.p.SetItems(m.imageItems())
}

// imagesKey changes whenever an image may have come or gone.
func (m *Model) imagesKey() string {
	n := m.conv.Len()
	key := strconv.Itoa(n) + "/" + strconv.Itoa(len(m.comp.attachments))
	if n > 0 {
		last := m.conv.At(n - 1)
		key += "/" + strconv.Itoa(last.ID) + "/" + strconv.Itoa(int(last.State)) + "/" + strconv.Itoa(len(last.Attachments))
	}
	if c := len(m.comp.attachments); c > 0 {
		key += "/" + m.comp.attachments[c-1].SHA256
	}
	return key
}

// imageItems lists every image of the conversation and of the composer.
func (m *Model) imageItems() []imagepane.Item {
	var out []imagepane.Item
	for _, msg := range m.conv.Messages() {
		for _, a := range msg.Attachments {
			if len(a.Data) == 0 {
				continue
			}
			out = append(out, itemFor(msg, a))
		}
	}
	now := m.now()
	for _, a := range m.comp.attachments {
		if len(a.Data) == 0 {
			continue
		}
		it := itemFor(conversation.Message{Role: api.RoleUser, Created: now}, a)
		it.Name = "next message: " + a.Name
		out = append(out, it)
	}
	return out
}

func itemFor(msg conversation.Message, a api.Attachment) imagepane.Item {
	it := imagepane.Item{
		Key: a.SHA256, Origin: imagepane.Attached, Name: a.Name,
		Width: a.Width, Height: a.Height, Bytes: len(a.Data), MIME: a.MIME, Created: msg.Created,
	}
	if msg.IsImages() {
		it.Origin, it.Path, it.Name = imagepane.Generated, a.Name, ""
		it.Prompt, it.Model = msg.Text, msg.Model
		if t := msg.Image; t != nil {
			it.Size = t.Size
			if t.From != "" {
				it.Origin, it.From = imagepane.Edited, t.From
			}
		}
	}
	return it
}

// draw draws the pane, and notes which preview the selected image needs
// (askPanePreview asks for it after the Update).
func (p *imagesPane) draw(m *Model, w, h int) string {
	p.refresh(m)
	var lines []string
	if it, ok := p.p.Selected(); ok {
		_, _, pw, ph := p.p.PreviewArea(w, h)
		if it.Key != p.needKey {
			// Looked up once per selection, not on every frame: the
			// lookup walks the conversation.
			p.needKey, p.need = it.Key, preview.Source{}
			if a, ok := m.imageByKey(it.Key); ok {
				src := preview.Source{Data: a.Data}
				if n, err := hex.Decode(src.Sum[:], []byte(a.SHA256)); err == nil && n == len(src.Sum) {
					p.need = src
				}
			}
		}
		p.needW, p.needH = 0, 0
		if src := p.need; src.Data != nil && pw >= 4 && ph >= 2 && m.pics.mode != preview.Off {
			p.needW, p.needH = pw, ph
			if k := previewKey(src.Sum, pw, ph); k == p.shownKey {
				lines = p.shown
			} else if r, ok := m.pics.cache.Get(src.Sum, pw, ph, m.previewOptions()); ok && m.pics.transmitted(r) {
				p.shownKey, p.shown = k, r.Lines
				lines = r.Lines
			}
		}
	}
	return p.p.Draw(w, h, lines, p.focused)
}

// askPanePreview makes the preview the pane waits for, in a command.
func (m *Model) askPanePreview() tea.Cmd {
	p, ok := m.pane.(*imagesPane)
	if !ok || p.need.Data == nil || p.needW == 0 {
		return nil
	}
	k := previewKey(p.need.Sum, p.needW, p.needH)
	if k == p.shownKey || k == p.asked {
		return nil
	}
	p.asked = k
	src, w, h, cache, opts := p.need, p.needW, p.needH, m.pics.cache, m.previewOptions()
	return func() tea.Msg {
		r, err := cache.Render(src, w, h, opts)
		return panePreviewMsg{key: k, r: r, err: err}
	}
}

// panePreviewArrived shows a finished preview (after its kitty transmit).
func (m *Model) panePreviewArrived(msg panePreviewMsg) tea.Cmd {
	p, ok := m.pane.(*imagesPane)
	if !ok {
		return nil
	}
	if p.asked == msg.key {
		p.asked = ""
	}
	if msg.err != nil {
		if it, ok := p.p.Selected(); ok {
			p.p.SetPreviewError(it.Key, userSentence(msg.err))
		}
		return nil
	}
	p.shownKey, p.shown = msg.key, msg.r.Lines
	return m.transmit(msg.r)
}

// paneKey handles a key while the image pane has the keys.
func (m *Model) paneKey(p *imagesPane, msg tea.KeyPressMsg) tea.Cmd {
	act, cmd := p.p.HandleKey(msg)
	it, has := p.p.Selected()
	switch act {
	case imagepane.Close:
		p.focused = false
		m.comp.ta.Focus()
		return cmd
	case imagepane.None:
		return cmd
	}
	if !has {
		return cmd
	}
	a, ok := m.imageByKey(it.Key)
	if !ok {
		return tea.Batch(cmd, m.notify("that image's bytes are not at hand any more", toastWarn))
	}
	switch act {
	case imagepane.Attach:
		p.focused = false
		m.comp.ta.Focus()
		name := a.Name
		if it.Path != "" {
			name = filepath.Base(it.Path)
		}
		data, lim := a.Data, m.attachLimits()
		return tea.Batch(cmd, func() tea.Msg {
			att, err := api.AttachBytes(name, data, lim)
			if err != nil {
				return attachedMsg{err: err}
			}
			return attachedMsg{atts: []api.Attachment{att}}
		})
	case imagepane.Open:
		if it.Path == "" {
			return m.notify("this image has no file; save a copy first (s)", toastInfo)
		}
		sys, path, ctx := m.desktop, it.Path, m.base
		return tea.Batch(cmd, func() tea.Msg {
			if err := sys.Open(ctx, path); err != nil {
				return paneActionMsg{text: err.Error(), kind: toastErr}
			}
			return paneActionMsg{text: "opened " + cells.OneLine(filepath.Base(path)), kind: toastOK}
		})
	case imagepane.CopyPath:
		if it.Path == "" {
			return m.notify("this image has no file; save a copy first (s)", toastInfo)
		}
		return tea.Batch(cmd, copyText(m.clipboardWrite(), "path", it.Path))
	case imagepane.CopyImage:
		sys, data, ctx := m.desktop, a.Data, m.base
		return tea.Batch(cmd, func() tea.Msg {
			if err := sys.CopyImage(ctx, data); err != nil {
				kind := toastErr
				if errors.Is(err, desktop.ErrNoTool) {
					kind = toastWarn
				}
				return paneActionMsg{text: err.Error(), kind: kind}
			}
			return paneActionMsg{text: "image copied to the clipboard", kind: toastOK}
		})
	case imagepane.Save:
		dst, data := p.p.SavePath(), a.Data
		return tea.Batch(cmd, func() tea.Msg { return saveImageCopy(dst, data) })
	case imagepane.Edit:
		p.focused = false
		m.comp.ta.Focus()
		m.comp.setValue("/edit ")
		m.composerChanged()
		return tea.Batch(cmd, m.openMenu(), m.notify("describe the change and press enter; /edit edits the image selected in the pane", toastInfo))
	}
	return cmd
}

// saveImageCopy writes a copy of an image to dst (a folder keeps the
// image's name), never over an existing file.
func saveImageCopy(dst string, data []byte) tea.Msg {
	if st, err := os.Stat(dst); err == nil && st.IsDir() {
		dst = filepath.Join(dst, "image"+media.Sniff(data).Ext())
	}
	if err := writeNewFile(dst, data); err != nil {
		return paneActionMsg{text: fmt.Sprintf("cannot save a copy as %s: %s; choose another path", cells.OneLine(dst), userSentence(err)), kind: toastErr}
	}
	return paneActionMsg{text: "saved a copy as " + cells.OneLine(dst), kind: toastOK}
}

// writeNewFile writes data to a file that must not exist yet (its folder
// is made when missing); a failed write leaves no file behind.
func writeNewFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return unwrapPath(err)
	}
	err := media.WriteNew(path, data)
	if errors.Is(err, os.ErrExist) {
		return errors.New("a file of that name exists, and parley never overwrites one")
	}
	if err != nil {
		return unwrapPath(err)
	}
	return nil
}

// unwrapPath drops the path an *os.PathError repeats: the message names
// the file already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
