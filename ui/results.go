package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/ui/browser"
	"parley/ui/cells"
	"parley/ui/filepicker"
	"parley/ui/imageform"
	"parley/ui/overlay"
	"parley/ui/uictx"
)

// The actions of the root's own components (its layers and panes); the
// components of packages of their own report their own types
// (browser.Result, filepicker.Result, imageform.Result). A component never
// holds the root or closures over it: what it asks is data, and
// handleResult is the one place the root acts on it, one case per type.
type (
	// closeLayer closes the top layer and does nothing else.
	closeLayer struct{}
	// quitApp ends the program (the setup screen's quit).
	quitApp struct{}
	// themeResult applies a theme: a live preview keeps the picker open,
	// a choice (or a cancel, which restores the theme in use before)
	// closes it; announce says the new theme's name.
	themeResult struct {
		name            string
		close, announce bool
	}
	// modelsListed is the gateway's model list, for completion and the
	// vision refusal.
	modelsListed struct {
		models []string
		prices map[string]api.Price
		said   []api.ModelInfo // what the list says each model takes and makes
	}
	// modelChosen closes the model picker and switches to name; send sends
	// the message that waited for a model.
	modelChosen struct {
		name string
		send bool
	}
	// imagesAsked closes the layer and makes the images of ask (the image
	// form, or the image model picker once a model is chosen).
	imagesAsked struct{ ask imageAsk }
	// serverChosen closes the setup screen and chats with the server it
	// found.
	serverChosen struct{ setup overlay.SetupResult }
	// noticeResult is something a component has to tell the user: it goes
	// to the notices like every other message.
	noticeResult struct {
		text string
		kind toastKind
	}
)

// handleResult acts on a component's result. Every kind of result is
// handled here and nowhere else.
func (m *Model) handleResult(r uictx.Action) tea.Cmd {
	switch r := r.(type) {
	case nil:
		return nil
	case closeLayer:
		m.layers.pop()
		return nil
	case quitApp:
		m.quitting = true
		return tea.Quit
	case themeResult:
		if r.close {
			m.layers.pop()
		}
		cmd := m.setTheme(r.name)
		if r.announce {
			cmd = tea.Batch(cmd, m.notes.show("theme "+m.term.themeName, toastOK))
		}
		return cmd
	case modelsListed:
		m.eng.SetListed(r.models)
		m.eng.SetGateway(r.said)
		m.eng.SetPrices(r.prices)
		return nil
	case modelChosen:
		m.layers.pop()
		return m.useModel(r.name, r.send)
	case imagesAsked:
		m.layers.pop()
		m.images.lastAsk = r.ask
		return m.startImages(r.ask)
	case serverChosen:
		m.layers.pop()
		cmd, n := useServer(m.eng, m.opts, r.setup)
		return tea.Batch(cmd, m.notes.say(n))
	case noticeResult:
		return m.notes.show(r.text, r.kind)
	case focusComposerResult:
		m.focus.toComposer()
		return nil
	case imageAction:
		return m.imageAction(r)
	case regenerateChosen:
		m.layers.pop()
		return m.regenerate(r.reply, r.model)
	case branchChosen:
		m.layers.pop()
		return m.switchBranch(r.leaf)
	case browser.Result:
		return m.browsed(r)
	case filepicker.Result:
		// Closed, or files chosen (Dir is where it opens next time), or
		// a preview asked for, which the root's one renderer makes.
		switch r.Action {
		case filepicker.Close:
			m.layers.pop()
			return nil
		case filepicker.Attach:
			m.layers.pop()
			cmd, refused := m.work.attachUpTo(r.Paths, roomOf(m.opts, &m.pics), len(m.comp.attachments), "", false)
			return tea.Batch(cmd, m.notes.say(refused), rememberPickerDir(m.opts.Getenv, r.Dir))
		}
		return pickerPreview(*r.Preview, m.pics.cache, m.pics.options(m.ctx, m.term.profile))
	case imageform.Result:
		if r.Action != imageform.Submit {
			m.layers.pop()
			return nil
		}
		a := r.Ask
		return m.handleResult(imagesAsked{ask: imageAsk{prompt: a.Prompt, model: a.Model, size: a.Size, n: a.N}})
	}
	return m.notes.show("parley could not act on a result of kind "+cells.OneLine(resultName(r)), toastErr)
}

// resultName names an action's type for the message of one nothing
// handles (a programming error the tests catch).
func resultName(r uictx.Action) string { return fmt.Sprintf("%T", r) }
