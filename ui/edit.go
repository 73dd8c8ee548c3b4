package ui

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/config"
	"parley/conversation"
	"parley/media"
	"parley/ui/cells"
	"parley/ui/imagepane"
	"parley/ui/sidepane"
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

// edit reads /edit PROMPT [--mask PATH] [--model NAME] …: the image
// edited is src (editSource), the model one that can edit (or "": the
// picker asks among those).
func (r *imageRunner) edit(inv slash.Invocation, src imageSource, found bool, cat *api.Catalog, listed []string, cfg *config.Config, home string) imageLine {
	if !found {
		return imageLine{refused: "there is no image to edit yet; attach one (ctrl+v, /attach) or make one with /image, then /edit PROMPT"}
	}
	ask, err := r.parse(inv, api.CapImageEdit, cat, cfg)
	if err != nil {
		return imageLine{refused: err.Error()}
	}
	ask.edit = &src
	if ask.model == "" {
		if can := cat.WithListed(listed).ModelsWith(api.CapImageEdit); len(can) == 0 {
			return imageLine{refused: userSentence(cat.Require("", api.CapImageEdit))}
		}
	} else if err := cat.Require(ask.model, api.CapImageEdit); err != nil {
		return imageLine{refused: userSentence(err)}
	}
	if inv.Flags.Has("mask") {
		return imageLine{ask: ask, mask: slash.ExpandHome(inv.Flags.String("mask"), home)}
	}
	return imageLine{ask: ask}
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

// editSource is the image /edit works on: the one selected in the image
// pane, else the last attached in the composer, else the last of the
// conversation.
func editSource(pane sidepane.Pane, pending []api.Attachment, conv *conversation.Conversation) (imageSource, bool) {
	if p, ok := pane.(*imagepane.Pane); ok {
		if a, ok := p.SelectedImage(); ok {
			return imageSource{name: a.Name, data: a.Data}, true
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
