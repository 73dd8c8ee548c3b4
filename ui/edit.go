package ui

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
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
// edited is the one selected in the image pane, else the image attached in
// the composer, else the last image of the conversation. A refused line
// goes back to the composer, so nothing typed is lost.
func (m *Model) editCommand(inv slash.Invocation) tea.Cmd {
	refuse := func(why string) tea.Cmd {
		m.comp.keepLine(inv)
		return m.notes.show(why, toastErr)
	}
	src, ok := editSource(m.pane, m.comp.attachments, m.eng.Conv())
	if !ok {
		return refuse("there is no image to edit yet; attach one (ctrl+v, /attach) or make one with /image, then /edit PROMPT")
	}
	ask, err := m.images.parse(inv, api.CapImageEdit, m.eng.Catalog(), m.opts.Config)
	if err != nil {
		return refuse(err.Error())
	}
	ask.edit = &src
	pick := ask.model == ""
	if pick {
		if can := m.eng.Catalog().WithListed(m.eng.Listed()).ModelsWith(api.CapImageEdit); len(can) == 0 {
			return refuse(userSentence(m.eng.Catalog().Require("", api.CapImageEdit)))
		}
	} else if err := m.eng.Catalog().Require(ask.model, api.CapImageEdit); err != nil {
		return refuse(userSentence(err))
	}
	switch {
	case inv.Flags.Has("mask"):
		return readMask(ask, slash.ExpandHome(inv.Flags.String("mask"), m.opts.Getenv("HOME")))
	case pick:
		return m.openModels(modelLayer{forImages: &ask, imageCap: api.CapImageEdit})
	}
	return m.startImages(ask)
}

// readMask reads and checks the mask in a command: a PNG with the image's
// dimensions and a transparent pixel.
func readMask(ask imageAsk, path string) tea.Cmd {
	src := ask.edit.data
	return func() tea.Msg {
		data, err := media.ReadImageFile(path, media.MaxFileBytes)
		if err == nil {
			err = media.CheckMask(src, data)
		}
		if err != nil {
			return editMaskMsg{ask: ask, err: fmt.Errorf("cannot use the mask %s: %w", cells.OneLine(filepath.Base(path)), err)}
		}
		ask.mask = data
		return editMaskMsg{ask: ask}
	}
}

// maskRead goes on with an edit once its mask is checked; without a model
// the picker asks for one.
func (m *Model) maskRead(msg editMaskMsg) tea.Cmd {
	if msg.err != nil {
		return m.notes.show(userSentence(msg.err), toastErr)
	}
	if msg.ask.model == "" {
		return m.openModels(modelLayer{forImages: &msg.ask, imageCap: api.CapImageEdit})
	}
	return m.startImages(msg.ask)
}

// editSource is the image /edit works on: the one selected in the image
// pane, else the last attached in the composer, else the last of the
// conversation.
func editSource(pane sidePane, pending []api.Attachment, conv *conversation.Conversation) (imageSource, bool) {
	if p, ok := pane.(*imagesPane); ok {
		if key, ok := p.selection(); ok {
			if a, ok := findImage(conv, pending, key); ok {
				return imageSource{name: a.Name, data: a.Data}, true
			}
		}
	}
	for i := len(pending) - 1; i >= 0; i-- {
		if a := pending[i]; len(a.Data) > 0 && !a.IsText() {
			return imageSource{name: a.Name, data: a.Data}, true
		}
	}
	msgs := conv.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		atts := msgs[i].Attachments
		for j := len(atts) - 1; j >= 0; j-- {
			if len(atts[j].Data) > 0 && !atts[j].IsText() {
				return imageSource{name: atts[j].Name, data: atts[j].Data}, true
			}
		}
	}
	return imageSource{}, false
}
