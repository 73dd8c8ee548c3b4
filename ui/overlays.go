package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/termsafe"
	"parley/ui/overlay"
)

// ovKind is how the open overlay takes the screen (relayout turns a panel
// into a full-screen overlay when the screen is small).
func (m *Model) ovKind() overlayKind {
	switch m.openKind {
	case openSetup:
		return overlayFull
	case openHelp, openModels, openThemes:
		return overlayPanel
	}
	return overlayNone
}

// setOpen opens (or, with openNone, closes) an overlay and re-lays the
// screen around it.
func (m *Model) setOpen(k openOverlay) {
	m.openKind = k
	if k == openNone {
		m.comp.ta.Focus()
	} else {
		m.comp.ta.Blur()
	}
	m.codePrefix = false
	m.relayout()
}

func (m *Model) openHelp() tea.Cmd {
	m.help = overlay.NewHelp(m.ctx, m.ctx.Keys.Groups())
	m.setOpen(openHelp)
	return nil
}

// routeOverlay hands a message to the open overlay and acts on its result.
func (m *Model) routeOverlay(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.openKind {
	case openHelp:
		var closed bool
		m.help, closed = m.help.Update(msg)
		if closed {
			m.setOpen(openNone)
			return nil
		}
	case openModels:
		var res overlay.PickerResult
		m.picker, res = m.picker.Update(msg)
		cmd = m.modelPicked(res)
	case openThemes:
		var res overlay.PickerResult
		m.picker, res = m.picker.Update(msg)
		cmd = m.themePicked(res)
	case openSetup:
		return m.updateSetup(msg)
	}
	return cmd
}

// openModelPicker lists the configured models with their capabilities,
// the current and default models, and (asked for in the background) the
// models the gateway lists.
func (m *Model) openModelPicker() tea.Cmd {
	m.picker = overlay.NewPicker(m.ctx, m.chatModels(overlay.ModelItems(m.catalog, m.model, m.defaultModel(), nil)), overlay.ModelPickerOptions())
	m.setOpen(openModels)
	m.pickerGen++
	client, err := m.client(m.model)
	if err != nil {
		return nil
	}
	m.picker.SetLoading(overlay.ModelsLoading)
	return listModels(m.base, client, m.pickerGen)
}

// modelsListedMsg carries the gateway's model list.
type modelsListedMsg struct {
	gen    int
	models []string
	err    error
}

func listModels(ctx context.Context, c *api.Client, gen int) tea.Cmd {
	return func() tea.Msg {
		ms, err := c.ListModels(ctx)
		return modelsListedMsg{gen: gen, models: ms, err: err}
	}
}

func (m *Model) modelsListed(msg modelsListedMsg) tea.Cmd {
	if m.openKind != openModels || msg.gen != m.pickerGen {
		return nil
	}
	if msg.err != nil {
		m.picker.SetError(fmt.Errorf("the gateway's model list is not available: %w", msg.err))
	} else {
		m.picker.SetItems(m.chatModels(overlay.ModelItems(m.catalog, m.model, m.defaultModel(), msg.models)))
	}
	return nil
}

// chatModels leaves out image models (generation or editing only): this
// picker chooses who answers the chat, and gateways refuse chat requests to
// them. The current model always stays.
func (m *Model) chatModels(items []overlay.PickerItem) []overlay.PickerItem {
	out := items[:0:0]
	for _, it := range items {
		c := m.catalog.Lookup(it.Value).Caps
		if (c.ImageGeneration || c.ImageEdit) && !c.Vision && !c.StreamUsage && !it.Current {
			continue
		}
		out = append(out, it)
	}
	return out
}

// modelPicked switches the model for the next turn; the conversation keeps
// its history.
func (m *Model) modelPicked(res overlay.PickerResult) tea.Cmd {
	switch res.Action {
	case overlay.PickerCancel:
		m.setOpen(openNone)
	case overlay.PickerChoose:
		m.setOpen(openNone)
		if res.Item.Value == "" || res.Item.Value == m.model {
			return nil
		}
		m.model = res.Item.Value
		m.comp.setPlaceholder(m.model, firstKey(m.keyMap().ModelPicker, "ctrl+o"))
		m.composerChanged()
		m.renderStatus()
		msg := "next reply from " + termsafe.Sanitize(m.model)
		if m.stream != nil {
			msg = "the reply in flight keeps its model; the next one comes from " + termsafe.Sanitize(m.model)
		}
		return tea.Batch(m.prepareClient(m.model), m.showToast(msg, toastOK))
	}
	return nil
}

// updateSetup routes a message to the first-run screen and applies its
// result: use a server found on loopback (and maybe save it), or quit.
func (m *Model) updateSetup(msg tea.Msg) tea.Cmd {
	var res overlay.SetupResult
	var cmd tea.Cmd
	m.setup, res, cmd = m.setup.Update(msg)
	switch res.Action {
	case overlay.SetupQuit:
		m.quitting = true
		return tea.Quit
	case overlay.SetupUse:
		return tea.Batch(cmd, m.useServer(res))
	}
	return cmd
}
