package ui

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/media"
	"parley/ui/cells"
	"parley/ui/slash"
)

// editFlags are /edit's options: /image's, and the mask.
func editFlags() []slash.Flag {
	return append(imageFlags(),
		slash.Flag{Name: "mask", Value: "PATH", Usage: "a PNG of the same size; its transparent pixels mark what may change"})
}

// editMaskMsg brings an edit whose mask was read (off the Update goroutine).
type editMaskMsg struct {
	ask imageAsk
	err error
}

// editCommand runs /edit PROMPT [--mask PATH] [--model NAME] …: the image
// edited is the one selected in the image pane when it has the keys, else
// the image attached in the composer, else the last image of the
// conversation.
func (m *Model) editCommand(inv slash.Invocation) tea.Cmd {
	src, ok := m.editSource()
	if !ok {
		return m.refuseCommand(inv, "there is no image to edit yet; attach one (ctrl+v, /attach) or make one with /image, then /edit PROMPT")
	}
	ask, err := m.parseImageAsk(inv, api.CapImageEdit)
	if err != nil {
		return m.refuseCommand(inv, err.Error())
	}
	ask.edit = &src
	if ask.model == "" {
		if can := m.catalog.WithListed(m.gateway.models).ModelsWith(api.CapImageEdit); len(can) == 0 {
			return m.refuseCommand(inv, userSentence(m.catalog.Require("", api.CapImageEdit)))
		}
		if inv.Flags.Has("mask") {
			return m.readMask(ask, inv.Flags.String("mask"), true)
		}
		return m.openImageModelPicker(api.CapImageEdit, ask)
	}
	if err := m.catalog.Require(ask.model, api.CapImageEdit); err != nil {
		return m.refuseCommand(inv, userSentence(err))
	}
	if inv.Flags.Has("mask") {
		return m.readMask(ask, inv.Flags.String("mask"), false)
	}
	return m.startImages(ask)
}

// readMask reads and checks the mask in a command: a PNG with the image's
// dimensions and a transparent pixel. pick opens the model picker after.
func (m *Model) readMask(ask imageAsk, path string, pick bool) tea.Cmd {
	path = slash.ExpandHome(path, m.opts.Getenv("HOME"))
	src := ask.edit.data
	return func() tea.Msg {
		data, err := media.ReadImageFile(path, media.MaxFileBytes)
		if err != nil {
			return editMaskMsg{ask: ask, err: fmt.Errorf("cannot use the mask %s: %w", cells.OneLine(filepath.Base(path)), err)}
		}
		if err := media.CheckMask(src, data); err != nil {
			return editMaskMsg{ask: ask, err: fmt.Errorf("cannot use the mask %s: %w", cells.OneLine(filepath.Base(path)), err)}
		}
		ask.mask = data
		if pick {
			ask.model = ""
		}
		return editMaskMsg{ask: ask}
	}
}

// maskRead goes on with an edit once its mask is checked.
func (m *Model) maskRead(msg editMaskMsg) tea.Cmd {
	if msg.err != nil {
		return m.notify(userSentence(msg.err), toastErr)
	}
	if msg.ask.model == "" {
		return m.openImageModelPicker(api.CapImageEdit, msg.ask)
	}
	return m.startImages(msg.ask)
}

// editSource is the image /edit works on.
func (m *Model) editSource() (imageSource, bool) {
	if p, ok := m.pane.(*imagesPane); ok {
		key, _ := p.selection()
		if a, ok := findImage(m.conv, m.comp.attachments, key); ok {
			return imageSource{name: a.Name, data: a.Data}, true
		}
	}
	for i := len(m.comp.attachments) - 1; i >= 0; i-- {
		if a := m.comp.attachments[i]; len(a.Data) > 0 {
			return imageSource{name: a.Name, data: a.Data}, true
		}
	}
	msgs := m.conv.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		atts := msgs[i].Attachments
		for j := len(atts) - 1; j >= 0; j-- {
			if len(atts[j].Data) > 0 {
				return imageSource{name: atts[j].Name, data: atts[j].Data}, true
			}
		}
	}
	return imageSource{}, false
}
