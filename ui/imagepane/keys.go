package imagepane

import (
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// HandleKey handles a key while the pane has focus. Up/down (and k/j),
// pgup/pgdown and home/end (and g/G) move the selection; a, o, c, y, e
// return Attach, Open, CopyPath, CopyImage, Edit for the selected image;
// s opens the save prompt; esc returns Close. While the save prompt is
// open every key goes to it: enter returns Save (see SavePath), esc
// closes the prompt only, tab completes the path.
func (p *Pane) HandleKey(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	if p.prompt != nil {
		return p.promptKey(msg)
	}
	km := &p.ctx.Keys
	// Named keys by keystroke, letters by the text they type, so "G"
	// matches however the terminal reports shift.
	k, s := msg.Keystroke(), msg.String()
	switch {
	case keys.Matches(msg, km.Close) || k == "esc":
		return Close, nil
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
	return None, nil
}

// actionKey handles the single-letter actions on the selected image.
func (p *Pane) actionKey(k string) (Action, tea.Cmd) {
	it, ok := p.Selected()
	if !ok {
		switch k {
		case "a", "o", "c", "y", "s", "e":
			p.said = "there are no images yet: make one with /image, or attach one (ctrl+v, /attach)"
			return Say, nil
		}
		return None, nil
	}
	switch k {
	case "a":
		return Attach, nil
	case "o", "c":
		if it.Path == "" {
			// A pasted image lives only in memory: there is nothing to
			// open or point to until it is saved.
			p.said = "this image was pasted and has no file yet; s saves a copy first"
			return Say, nil
		}
		if k == "o" {
			return Open, nil
		}
		return CopyPath, nil
	case "y":
		return CopyImage, nil
	case "s":
		return None, p.openPrompt(it)
	case "e":
		return Edit, nil
	}
	return None, nil
}

// Said is what the pane has to tell the user when HandleKey returned Say.
func (p *Pane) Said() string { return p.said }
