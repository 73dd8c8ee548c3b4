package ui

import (
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"parley/ui/browser"
	"parley/ui/cells"
	"parley/ui/filepicker"
	"parley/ui/imageform"
	"parley/ui/imagepane"
	"parley/ui/overlay"
	"parley/ui/toolsui"
	"parley/ui/uictx"
)

// Every overlay and the image pane is a component of a package of its
// own and reports its own types (overlay.HelpClosed, overlay.PickerResult,
// overlay.ModelsListed, overlay.SetupResult, toolsui.ApprovalAnswer,
// toolsui.ListResult, browser.Result, filepicker.Result,
// imageform.Result, imagepane.Closed, imagepane.Said, imagepane.Chosen);
// the notices pane and the composer, the root's own, report the root's
// (focusComposerResult, noticeResult). A component never holds the root
// or closures over it: what it asks is data, and handleResult is the one
// place the root acts on it, one case per type.

// focusComposerResult gives the keys back to the composer (esc in the
// notices pane).
type focusComposerResult struct{}

// noticeResult is something a component has to tell the user: it goes to
// the notices like every other message.
type noticeResult struct {
	text string
	kind toastKind
}

// handleResult acts on a component's result. Every kind of result is
// handled here and nowhere else (a picker's, by what it was opened for,
// in picked).
func (m *Model) handleResult(r uictx.Action) tea.Cmd {
	switch r := r.(type) {
	case nil:
		return nil
	case overlay.HelpClosed:
		m.layers.pop()
		return nil
	case overlay.PickerResult:
		return m.picked(r)
	case overlay.ModelsListed:
		if r.Err != nil {
			// The picker says it in its rows; the notices keep it whole.
			m.notes.record(r.Err.Error(), toastErr)
			return nil
		}
		// The gateway's list a model picker shows: for completion, the
		// vision refusal and the prices.
		m.eng.SetListed(r.Models)
		m.eng.SetGateway(r.Said)
		m.eng.SetPrices(r.Prices)
		return nil
	case overlay.SetupResult:
		if r.Action == overlay.SetupQuit {
			m.quitting = true
			return tea.Quit
		}
		m.layers.pop()
		cmd, n := useServer(m.eng, m.opts, r)
		return tea.Batch(cmd, m.notes.say(n))
	case toolsui.ApprovalAnswer:
		answerTool(r, m.eng, &m.layers)
		return nil
	case toolsui.ListResult:
		if why := toolsListed(r, m.opts.MCP, &m.layers); why != "" {
			return m.notes.show(why, toastWarn)
		}
		return nil
	case noticeResult:
		return m.notes.show(r.text, r.kind)
	case focusComposerResult, imagepane.Closed:
		m.focus.toComposer()
		return nil
	case imagepane.Said:
		return m.notes.show(r.Text, toastInfo)
	case imagepane.Chosen:
		return m.imageAction(r)
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
		m.layers.pop()
		if r.Action != imageform.Submit {
			return nil
		}
		a := imageAsk{prompt: r.Ask.Prompt, model: r.Ask.Model, size: r.Ask.Size, n: r.Ask.N}
		m.images.lastAsk = a
		return m.startImages(a)
	}
	return m.notes.show("parley could not act on a result of kind "+cells.OneLine(resultName(r)), toastErr)
}

// picked acts on a picker's result by what the picker was opened for:
// adding a picker is its constructor and a case here. A live picker (the
// themes) previews as the selection moves; the others act on a choice and
// close on a cancel.
func (m *Model) picked(r overlay.PickerResult) tea.Cmd {
	if t, ok := r.For.(chooseTheme); ok {
		switch r.Action {
		case overlay.PickerCancel:
			m.layers.pop()
			return m.setTheme(t.before)
		case overlay.PickerChoose:
			m.layers.pop()
			cmd := m.setTheme(r.Item.Value)
			return tea.Batch(cmd, m.notes.show("theme "+m.term.themeName, toastOK))
		}
		return m.setTheme(r.Item.Value)
	}
	m.layers.pop()
	if r.Action != overlay.PickerChoose {
		return nil
	}
	switch p := r.For.(type) {
	case chooseModel:
		return m.useModel(r.Item.Value, p.send)
	case chooseImageModel:
		p.ask.model = r.Item.Value
		m.images.lastAsk = p.ask
		return m.startImages(p.ask)
	case regenerateWith:
		return m.regenerate(p.reply, r.Item.Value)
	case chooseBranch:
		leaf, err := strconv.Atoi(r.Item.Value)
		if err != nil {
			return nil
		}
		if err := m.eng.Conv().SwitchTo(leaf); err != nil {
			return m.notes.show(treeRefusal(err))
		}
		m.focus.toComposer()
		m.tr.List().Bottom()
		return m.tickIfNeeded()
	}
	return m.notes.show("parley could not act on a choice in a picker for "+cells.OneLine(resultName(r.For)), toastErr)
}

// resultName names an action's type for the message of one nothing
// handles (a programming error the tests catch).
func resultName(r any) string { return fmt.Sprintf("%T", r) }
