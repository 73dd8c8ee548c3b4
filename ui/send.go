package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/conversation"
	"parley/ui/overlay"
)

// send is the send key: check everything that can be checked before the
// request (a reply in flight, a model, a client, the model's vision), and
// only then change the conversation. A refused send keeps the composer's
// text and attachments as they are.
func (m *Model) send() tea.Cmd {
	text := strings.TrimRight(m.comp.value(), " \t\n")
	if draft, line, ok := trailingDetach(text); ok && len(m.comp.attachments) > 0 {
		// /detach N after a draft removes an attachment and keeps the
		// draft: an attachment can go whatever the composer holds.
		if inv, _, err := m.actions.commands.Parse(line); err == nil && inv.Name == "detach" {
			m.comp.setValue(draft)
			return m.runCommand(inv)
		}
	}
	if strings.HasPrefix(text, "/") && !m.comp.editing {
		inv, literal, err := m.actions.commands.Parse(text)
		switch {
		case err != nil:
			return m.notes.show(err.Error(), toastErr)
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
// message (or as the edit of the last one). What the send needs and does
// not have yet (attachments still being read, the model's client, the
// rest of a session being opened) holds it: the message stays in the
// composer and goes once that is here, never without it.
func (m *Model) sendMessage(text string) tea.Cmd {
	atts := m.comp.attachments
	if strings.TrimSpace(text) == "" && len(atts) == 0 && m.work.attaching == 0 {
		return nil
	}
	if m.eng.Reply() != nil {
		return m.notes.show(fmt.Sprintf("a reply is still streaming; press %s to stop it first", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	if m.eng.Images() != nil {
		return m.notes.show(fmt.Sprintf("images are still being made; your message stays here until they are done (%s stops them)", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	if m.eng.Model() == "" {
		return m.openModels(chooseModel{send: true}, overlay.ModelList{})
	}
	if !m.eng.Clients().Configured() {
		return m.notes.show(chat.ErrNoGateway.Error(), toastErr)
	}
	switch {
	case m.work.attaching > 0:
		m.eng.Hold(chat.WaitAttachments)
		return nil
	case m.hist.loading != "":
		m.eng.Hold(chat.WaitSession)
		return nil
	case m.eng.Clients().NeedsBuild(m.eng.Model()):
		m.eng.Hold(chat.WaitClient)
		return prepareClient(m.eng.Clients(), m.eng.Model())
	}
	in := &conversation.UserInput{Text: text, Attachments: atts}
	if m.comp.editing {
		in.EditOf = m.comp.editOf
	}
	if len(m.cmp.models) > 0 {
		rs, cmd, n := m.cmp.send(m.eng, in)
		if rs == nil {
			return tea.Batch(cmd, m.notes.say(n))
		}
		m.sent()
		m.spin = spinner{shown: rs[0].Started}
		return tea.Batch(frameTick(rs[0].ID, frameInterval), cmd, m.notes.say(n))
	}
	r, err := m.eng.Begin(in, m.eng.TurnOptions(m.eng.Model()))
	if err != nil {
		m.eng.Hold(chat.WaitNone)
		return m.notes.say(refusal(err))
	}
	m.sent()
	return m.startStream(r)
}

// sent shows that a message went: the composer empties, the banner and
// the notice go, and the transcript shows its end.
func (m *Model) sent() {
	m.comp.reset()
	m.notes.dismissBanner()
	m.notes.dismiss()
	m.tr.List().Bottom()
}

// refusal says why a turn could not start. Images in earlier messages
// that the model cannot see are a warning: the engine sends the next turn
// without them.
func refusal(err error) noticeResult {
	inChat(err)
	var ve *conversation.VisionError
	if errors.As(err, &ve) && ve.Earlier {
		return noticeResult{err.Error(), toastWarn}
	}
	return noticeResult{err.Error(), toastErr}
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
	if msg.pool != m.eng.Clients() {
		return nil // a client of a gateway the setup screen replaced
	}
	waiting := m.eng.Waiting() == chat.WaitClient && (msg.model == m.eng.Model() || m.cmp.waitsFor(msg.model, msg.err, m.eng.Clients()))
	if msg.err != nil {
		if msg.regenerate != 0 {
			return m.notes.show(msg.err.Error(), toastErr)
		}
		if waiting {
			m.eng.Hold(chat.WaitNone)
			return m.notes.show(msg.err.Error(), toastErr)
		}
		return nil
	}
	var cmds []tea.Cmd
	if w := msg.client.Warnings(); len(w) > 0 {
		cmds = append(cmds, m.notes.show(strings.Join(w, "; "), toastWarn))
	}
	if waiting {
		cmds = append(cmds, m.send())
	}
	if msg.regenerate != 0 {
		cmds = append(cmds, m.regenerate(msg.regenerate, msg.model))
	}
	return tea.Batch(cmds...)
}

// startStream runs the reply's request and starts its frame tick; earlier
// messages the request leaves out are said once a conversation.
func (m *Model) startStream(r *chat.Reply) tea.Cmd {
	var note tea.Cmd
	if n := len(r.Turn.Built.Dropped); n > 0 && m.turn.droppedSaid != m.eng.Conv().ID() {
		// Said once a conversation: every later request leaves them out
		// too, and the transcript marks them.
		m.turn.droppedSaid = m.eng.Conv().ID()
		note = m.notes.show(fmt.Sprintf("%d earlier %s without an answer (the reply failed or was stopped before any text) %s not sent again (%s resends a failed message right after it fails)", n, plural(n, "message", "messages"), plural(n, "was", "were"), firstKey(m.ctx.Keys.Retry, "ctrl+r")), toastInfo)
	}
	m.spin = spinner{shown: r.Started}
	return tea.Batch(runReply(r), frameTick(r.ID, frameInterval), note)
}

// interruptStream stops the reply in flight (if any) and shows what it
// sent.
func (m *Model) interruptStream() {
	if m.eng.Stop() {
		m.tr.Tick()
	}
}

// retry answers the last turn again: after a failure, an interruption, or
// to regenerate a finished reply. An image turn is made again; a reply
// is asked again only when it is the last turn.
func (m *Model) retry() tea.Cmd {
	if ask, why, ok := m.images.retryAsk(m.eng.Conv()); ok {
		if why != "" {
			return m.notes.show(why, toastInfo)
		}
		return m.startImages(ask)
	}
	if m.eng.Reply() != nil {
		return m.notes.show(fmt.Sprintf("a reply is still streaming; press %s to stop it first", firstKey(m.ctx.Keys.Cancel, "esc")), toastWarn)
	}
	if n := m.eng.Conv().Len(); n > 0 && m.eng.Conv().At(n-1).IsImages() {
		return m.notes.show("the last turn made images; select a reply and press r to regenerate it, or /image to make more", toastInfo)
	}
	if _, ok := m.eng.Conv().LastUser(); !ok {
		return m.notes.show(conversation.ErrNothingToRetry.Error(), toastInfo)
	}
	if m.eng.Model() == "" {
		return m.openModels(chooseModel{send: true}, overlay.ModelList{})
	}
	if !m.eng.Clients().Configured() {
		return m.notes.show(chat.ErrNoGateway.Error(), toastErr)
	}
	if m.eng.Clients().NeedsBuild(m.eng.Model()) {
		return tea.Batch(prepareClient(m.eng.Clients(), m.eng.Model()), m.notes.show("connecting to the gateway; press "+firstKey(m.ctx.Keys.Retry, "ctrl+r")+" again in a moment", toastInfo))
	}
	r, err := m.eng.Begin(nil, m.eng.TurnOptions(m.eng.Model()))
	if err != nil {
		return m.notes.say(refusal(err))
	}
	m.notes.dismiss()
	m.tr.List().Bottom()
	return m.startStream(r)
}

// trailingDetach finds a /detach command that ends a draft ("summarise:
// /detach 2", or on a line of its own after it): the draft before it and
// the command's line. A composer that starts with the command is the
// ordinary command path, not this.
func trailingDetach(text string) (draft, line string, ok bool) {
	i := strings.LastIndex(text, "/detach")
	if i <= 0 {
		return "", "", false
	}
	rest := strings.TrimSpace(text[i+len("/detach"):])
	if rest != "" && strings.Trim(rest, "0123456789") != "" {
		return "", "", false
	}
	if c := text[i+len("/detach"):]; c != "" && c[0] != ' ' && c[0] != '\t' {
		return "", "", false // "/detached" is a word, not the command
	}
	return strings.TrimRight(text[:i], " \t\n"), strings.TrimSpace(text[i:]), true
}
