package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/ui/cells"
	"parley/ui/overlay"
	"parley/ui/preview"
)

// result is what a component asks of the root, as data: the components
// (layers, panes) never hold the root or closures over it. handleResult is
// the one place the root acts on a result, one case per kind.
type result any

// The results of the root's own layers.
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
	// sessionChosen closes the browser and opens a session (at message
	// jump when it is not 0).
	sessionChosen struct {
		id   string
		jump int
	}
	// sessionRenamed and sessionDeleted follow a change the browser made
	// in the store, when it is the conversation on screen.
	sessionRenamed struct{ id, title string }
	sessionDeleted struct{ id, title string }
	// newConversationAsked closes the layer and starts a new conversation.
	newConversationAsked struct{}
	// noticeResult is something a component has to tell the user: it goes
	// to the notices like every other message.
	noticeResult struct {
		text string
		kind toastKind
	}
	// kittyPicture is a picture a component is about to show: in kitty
	// mode the root sends it to the terminal first (once).
	kittyPicture struct{ r preview.Rendered }
	// filesChosen closes the file picker and attaches paths; dir is the
	// folder to open the next time.
	filesChosen struct {
		paths []string
		dir   string
	}
)

// handleResult acts on a component's result. Every kind of result is
// handled here and nowhere else.
func (m *Model) handleResult(r result) tea.Cmd {
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
	case sessionChosen:
		m.layers.pop()
		if r.id == m.eng.Conv().ID() && r.jump == 0 {
			return nil
		}
		return m.openSession(r.id, r.jump)
	case sessionRenamed:
		if m.eng.Conv().ID() == r.id {
			m.eng.Conv().SetTitle(r.title)
		}
		return nil
	case sessionDeleted:
		if m.eng.Conv().ID() == r.id {
			// The conversation on screen is gone from the history: start
			// afresh so nothing more is written under its id.
			m.interruptStream()
			m.openConversation(m.eng.Fresh(), 0)
		}
		return m.notes.show("deleted "+cells.OneLine(r.title), toastOK)
	case newConversationAsked:
		m.layers.pop()
		return m.startNewConversation()
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
	case kittyPicture:
		return m.pics.transmit(r.r)
	case filesChosen:
		m.layers.pop()
		cmd, refused := m.work.attachUpTo(r.paths, roomOf(m.opts, &m.pics), len(m.comp.attachments), "", false)
		return tea.Batch(cmd, m.notes.say(refused), rememberPickerDir(m.opts.Getenv, r.dir))
	}
	return m.notes.show("parley could not act on a result of kind "+cells.OneLine(resultName(r)), toastErr)
}

// resultName names a result's type for the message of a result nothing
// handles (a programming error the tests catch).
func resultName(r result) string { return fmt.Sprintf("%T", r) }
