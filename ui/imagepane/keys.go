package imagepane

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/uictx"
)

// handleKey handles a key while the pane has focus. Up/down (and k/j),
// pgup/pgdown and home/end (and g/G) move the selection; a, o, c, y, e
// choose Attach, Open, CopyPath, CopyImage, Edit for the selected image;
// s opens the save prompt; esc returns Closed. While the save prompt is
// open every key goes to it: enter chooses Save, esc closes the prompt
// only, tab completes the path.
func (p *Pane) handleKey(msg tea.KeyPressMsg) (tea.Cmd, uictx.Action) {
	if p.prompt != nil {
		return p.promptKey(msg)
	}
	km := &p.ctx.Keys
	// Named keys by keystroke, letters by the text they type, so "G"
	// matches however the terminal reports shift.
	k, s := msg.Keystroke(), msg.String()
	switch {
	case keys.Matches(msg, km.Close) || k == "esc":
		return nil, Closed{}
	case p.list.Update(msg):
	case s == "k":
		p.list.Move(-1)
	case s == "j":
		p.list.Move(1)
	case s == "g":
		p.list.SetCursor(0)
	case s == "G":
		p.list.SetCursor(len(p.items) - 1)
	default:
		return p.actionKey(s)
	}
	return nil, nil
}

// actionKey handles the single-letter actions on the selected image.
func (p *Pane) actionKey(k string) (tea.Cmd, uictx.Action) {
	it, ok := p.Selected()
	if !ok {
		switch k {
		case "a", "o", "c", "y", "s", "e":
			return nil, Said{"there are no images yet: make one with /image, or attach one (ctrl+v, /attach)"}
		}
		return nil, nil
	}
	switch k {
	case "a":
		return nil, p.chosen(Attach, it, "")
	case "o", "c":
		if it.Path == "" {
			// A pasted image lives only in memory: there is nothing to
			// open or point to until it is saved.
			return nil, Said{"this image was pasted and has no file yet; s saves a copy first"}
		}
		if k == "o" {
			return nil, p.chosen(Open, it, "")
		}
		return nil, p.chosen(CopyPath, it, "")
	case "y":
		return nil, p.chosen(CopyImage, it, "")
	case "s":
		return p.openPrompt(it), nil
	case "e":
		return nil, p.chosen(Edit, it, "")
	}
	return nil, nil
}

// chosen is the result that acts on it, with its bytes.
func (p *Pane) chosen(a Action, it Item, savePath string) Chosen {
	img, _ := findImage(p.conv, p.pending, it.Key)
	return Chosen{Action: a, Item: it, Image: img, SavePath: savePath}
}
