package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
)

// send is the send key: check everything that can be checked before the
// request (a reply in flight, a model, a client, the model's vision), and
// only then change the conversation. A refused send keeps the composer's
// text and attachments as they are.
func (m *Model) send() tea.Cmd {
	text := strings.TrimRight(m.comp.value(), " \t\n")
	if strings.HasPrefix(text, "/") && !m.comp.editing {
		inv, literal, err := m.actions.commands.Parse(text)
		switch {
		case err != nil:
			return m.notify(err.Error(), toastErr)
		case inv.Name != "":
			m.menu.Close()
			m.comp.clearText()
			return m.runCommand(inv)
		}
		text = literal
	}
	return m.sendMessage(text)
}

// sendMessage sends text and the composer's attachments as the next user
// message (or as the edit of the last one).
func (m *Model) sendMessage(text string) tea.Cmd {
	atts := m.comp.attachments
	if strings.TrimSpace(text) == "" && len(atts) == 0 {
		return nil
	}
	if m.stream.active != nil {
		return m.notify(fmt.Sprintf("a reply is still streaming; press %s to stop it first", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	if m.images.run != nil {
		return m.notify(fmt.Sprintf("images are still being made; your message stays here until they are done (%s stops them)", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	if m.model == "" {
		return m.openModelPicker(true)
	}
	if !m.clients.configured() {
		return m.notify(errNoGateway.Error(), toastErr)
	}
	if m.hist.loading != "" {
		// A session is opening: the message goes once all of it is here.
		m.turn.pendingSend = true
		return nil
	}
	client, ok := m.clients.ready(m.model)
	if !ok {
		// The client is still being built (api_key_cmd may take a while):
		// the message waits in the composer and goes when it is ready.
		m.turn.pendingSend = true
		return m.clients.prepare(m.model)
	}
	m.turn.pendingSend = false
	in := &conversation.UserInput{Text: text, Attachments: atts}
	if m.comp.editing {
		in.EditOf = m.comp.editOf
	}
	t, err := m.conv.Begin(in, m.turnOptions())
	if err != nil {
		return m.refused(err)
	}
	m.turn.withoutImages = ""
	m.comp.reset()
	m.notes.dismissBanner()
	m.notes.dismiss()
	m.tr.List().Bottom()
	return m.startStream(client, t)
}

// turnOptions are the options of the next turn.
func (m *Model) turnOptions() conversation.TurnOptions {
	o := conversation.TurnOptions{
		Model:         m.model,
		Catalog:       m.catalog,
		MaxHistory:    m.opts.maxHistory(),
		WithoutImages: m.turn.withoutImages != "" && m.turn.withoutImages == m.model,
	}
	o.Params, o.ParamSources = api.MergeParams(paramLayers(m.opts.Config, m.model, m.conv)...)
	return o
}

// refused says why a turn could not start. For images in earlier messages
// that the model cannot see, the next send goes without them.
func (m *Model) refused(err error) tea.Cmd {
	inChat(err)
	var ve *conversation.VisionError
	if errors.As(err, &ve) && ve.Earlier {
		m.turn.withoutImages = m.model
		return m.notify(err.Error(), toastWarn)
	}
	return m.notify(err.Error(), toastErr)
}

// inChat points a refusal that names only a few models with vision at
// the chat's model list.
func inChat(err error) {
	var ce *api.CapabilityError
	if errors.As(err, &ce) && ce.Capability == api.CapVision {
		ce.ListedBy = "/model"
	}
}

// clientReady takes a client built ahead and shows its warnings (plain
// http to a remote host, …); a send that waited for it goes now, or says
// why it cannot.
func (m *Model) clientReady(msg clientReadyMsg) tea.Cmd {
	if msg.pool != m.clients {
		return nil // a client of a gateway the setup screen replaced
	}
	waiting := m.turn.pendingSend && msg.model == m.model
	if msg.err != nil {
		if waiting {
			m.turn.pendingSend = false
			return m.notify(msg.err.Error(), toastErr)
		}
		return nil
	}
	var cmds []tea.Cmd
	if w := msg.client.Warnings(); len(w) > 0 {
		cmds = append(cmds, m.notify(strings.Join(w, "; "), toastWarn))
	}
	if waiting {
		cmds = append(cmds, m.send())
	}
	return tea.Batch(cmds...)
}

// startStream sends the turn's request; the reply streams through a pump
// owned by a cancellable context.
func (m *Model) startStream(client *api.Client, t *conversation.Turn) tea.Cmd {
	var note tea.Cmd
	if n := len(t.Built.Dropped); n > 0 && m.turn.droppedSaid != m.conv.ID() {
		// Said once a conversation: every later request leaves them out
		// too, and the transcript marks them.
		m.turn.droppedSaid = m.conv.ID()
		note = m.notify(fmt.Sprintf("%d earlier %s whose reply failed %s not sent again (%s resends a failed message right after it fails)", n, plural(n, "message", "messages"), plural(n, "was", "were"), firstKey(m.ctx.Keys.Retry, "ctrl+r")), toastInfo)
	}
	return tea.Batch(m.stream.start(m.base, client, t, m.model, m.now(), m.hist.rec), note)
}

// interruptStream stops the reply in flight (if any) and shows what it
// sent.
func (m *Model) interruptStream() {
	if m.stream.interrupt(m.conv, m.now()) {
		m.tr.Tick()
	}
}

// retry answers the last user message again: after a failure, an
// interruption, or to regenerate a finished reply.
func (m *Model) retry() tea.Cmd {
	if ask, why, ok := m.images.retryAsk(m.conv); ok {
		if why != "" {
			return m.notify(why, toastInfo)
		}
		return m.startImages(ask)
	}
	if m.stream.active != nil {
		return m.notify(fmt.Sprintf("a reply is still streaming; press %s to stop it first", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	if _, ok := m.conv.LastUser(); !ok {
		return m.notify(conversation.ErrNothingToRetry.Error(), toastInfo)
	}
	if m.model == "" {
		return m.openModelPicker(true)
	}
	client, ok := m.clients.ready(m.model)
	if !ok {
		if !m.clients.configured() {
			return m.notify(errNoGateway.Error(), toastErr)
		}
		return tea.Batch(m.clients.prepare(m.model), m.notify("connecting to the gateway; press "+firstKey(m.ctx.Keys.Retry, "ctrl+r")+" again in a moment", toastInfo))
	}
	t, err := m.conv.Begin(nil, m.turnOptions())
	if err != nil {
		return m.refused(err)
	}
	m.turn.withoutImages = ""
	m.notes.dismiss()
	m.tr.List().Bottom()
	return m.startStream(client, t)
}
