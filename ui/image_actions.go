package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/internal/desktop"
	"parley/internal/fserr"
	"parley/media"
	"parley/ui/cells"
	"parley/ui/imagepane"
)

// noticeMsg is what a command has to tell the user: the outcome of an
// action of the image pane, or why a copy had nothing to copy.
type noticeMsg struct {
	text string
	kind toastKind
}

// imageAction carries out what the image pane chose to do with its
// selected image: the desktop work (open, copy, save) runs in commands.
func (m *Model) imageAction(r imagepane.Chosen) tea.Cmd {
	a, it := r.Image, r.Item
	if len(a.Data) == 0 {
		return m.notes.show("that image's bytes are not at hand any more", toastWarn)
	}
	switch r.Action {
	case imagepane.Attach:
		m.focus.toComposer()
		name := a.Name
		if it.Path != "" {
			name = filepath.Base(it.Path)
		}
		data, lim, ctx := a.Data, attachLimits(m.opts, &m.pics), m.work.startAttaching()
		return func() tea.Msg {
			att, err := api.AttachBytesContext(ctx, name, data, lim)
			if err != nil {
				return attachedMsg{err: err}
			}
			return attachedMsg{atts: []api.Attachment{att}}
		}
	case imagepane.Open:
		if it.Path == "" {
			return m.notes.show("this image has no file; save a copy first (s)", toastInfo)
		}
		sys, path, ctx := m.desktop, it.Path, m.base
		return func() tea.Msg {
			if err := sys.Open(ctx, path); err != nil {
				return noticeMsg{text: err.Error(), kind: toastErr}
			}
			return noticeMsg{text: "opened " + cells.OneLine(filepath.Base(path)), kind: toastOK}
		}
	case imagepane.CopyPath:
		if it.Path == "" {
			return m.notes.show("this image has no file; save a copy first (s)", toastInfo)
		}
		return copyText(m.opts.clipboardWrite(m.desktop, m.base), "path", it.Path)
	case imagepane.CopyImage:
		sys, data, ctx := m.desktop, a.Data, m.base
		return func() tea.Msg {
			if err := sys.CopyImage(ctx, data); err != nil {
				kind := toastErr
				if errors.Is(err, desktop.ErrNoTool) {
					kind = toastWarn
				}
				return noticeMsg{text: err.Error(), kind: kind}
			}
			return noticeMsg{text: "image copied to the clipboard", kind: toastOK}
		}
	case imagepane.Save:
		dst, data, own := r.SavePath, a.Data, m.opts.saveDir()
		return func() tea.Msg { return saveImageCopy(dst, data, own) }
	case imagepane.Edit:
		m.focus.toComposer()
		m.comp.setValue("/edit ")
		return tea.Batch(m.menu.open(completionEnv(m.eng, &m.images, m.opts, m.term.themes), m.comp.value()), m.notes.show("describe the change and press enter; /edit edits the image selected in the pane", toastInfo))
	}
	return nil
}

// saveImageCopy writes a copy of an image to dst (a folder keeps the
// image's name), never over an existing file. own is parley's own image
// folder, made when missing; any other folder must exist, since a typo
// there would leave stray folders.
func saveImageCopy(dst string, data []byte, own string) tea.Msg {
	if st, err := os.Stat(dst); err == nil && st.IsDir() {
		dst = filepath.Join(dst, "image"+media.Sniff(data).Ext())
	}
	if err := writeNewFile(dst, data, own); err != nil {
		return noticeMsg{text: fmt.Sprintf("cannot save a copy as %s: %s; choose another path", cells.OneLine(dst), userSentence(err)), kind: toastErr}
	}
	return noticeMsg{text: "saved a copy as " + cells.OneLine(dst), kind: toastOK}
}

// writeNewFile writes data to a file that must not exist yet; its folder
// is made when missing only when it is own; a failed write leaves no file
// behind.
func writeNewFile(path string, data []byte, own string) error {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) && (own == "" || filepath.Clean(own) != dir) {
		return fmt.Errorf("the folder %s does not exist (create it first)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fserr.Cause(err)
	}
	err := media.WriteNew(path, data)
	if errors.Is(err, os.ErrExist) {
		return errors.New("a file of that name exists, and parley never overwrites one")
	}
	if err != nil {
		return fserr.Cause(err)
	}
	return nil
}
