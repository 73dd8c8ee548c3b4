package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/termsafe"
)

// send is the send key: check everything that can be checked before the
// request (a reply in flight, a client for the model, the model's vision
// capability), and only then change the conversation. A refused send keeps
// the composer's text and attachments as they are.
func (m *Model) send() tea.Cmd {
	text := strings.TrimRight(m.comp.value(), " \t\n")
	atts := m.comp.attachments
	if strings.TrimSpace(text) == "" && len(atts) == 0 {
		return nil
	}
	if m.stream != nil {
		return m.showToast(fmt.Sprintf("a reply is still streaming; press %s to stop it first", firstKey(m.keyMap().Cancel, "esc")), toastWarn)
	}
	if m.model == "" {
		return m.chooseModelFirst()
	}
	client, err := m.client(m.model)
	if err != nil {
		return m.showToast(err.Error(), toastErr)
	}
	editing := m.comp.editing
	hasImages := len(atts) > 0 || m.historyHasImages(editing)
	if hasImages {
		if err := m.catalog.Require(m.model, api.CapVision); err != nil {
			return m.showToast(err.Error(), toastErr)
		}
	}

	var id int
	if editing {
		id, err = m.replaceLastUser(text, atts)
	} else {
		id, err = m.addUser(text, atts)
	}
	if id == 0 {
		return m.showToast(err.Error(), toastErr)
	}
	m.comp.reset()
	m.comp.setPrompt(m.ctx)
	m.dismissBanner()
	m.composerChanged()
	m.tr.Bottom()
	cmd := m.startStream(client)
	if err != nil {
		// The recorder failed; the message is sent anyway.
		cmd = tea.Batch(cmd, m.showToast("could not save the conversation: "+err.Error(), toastWarn))
	}
	return cmd
}

// chooseModelFirst opens the model picker when no model was given (no
// --model, no default_model); the composer keeps its text.
func (m *Model) chooseModelFirst() tea.Cmd {
	cmd := m.openModelPicker()
	return tea.Batch(cmd, m.showToast("choose a model first (set default_model in the config to skip this)", toastInfo))
}

// historyHasImages reports whether the request would carry earlier images.
// When editing, the last user message is about to be replaced, so its
// images do not count (the composer holds what replaces them).
func (m *Model) historyHasImages(editing bool) bool {
	last := -1
	if editing {
		if u, ok := m.conv.LastUser(); ok {
			last = u.ID
		}
	}
	for _, msg := range m.conv.Messages() {
		if len(msg.Attachments) > 0 && msg.ID != last {
			return true
		}
	}
	return false
}

// client returns the cached client for a model, building it on first use.
// Clients are usually built ahead by prepareClient; building one here is the
// fallback (it may run api_key_cmd, so it is better done off Update).
func (m *Model) client(model string) (*api.Client, error) {
	if c, ok := m.clients[model]; ok {
		return c, nil
	}
	if m.newClient == nil {
		return nil, errNoGateway
	}
	c, err := m.newClient(model)
	if err != nil {
		return nil, err
	}
	m.clients[model] = c
	return c, nil
}

var errNoGateway = errors.New("no gateway is configured: set OPENAI_BASE_URL and OPENAI_API_KEY, or add a [[providers]] entry to the config file")

// clientReadyMsg brings a client built ahead of the first send.
type clientReadyMsg struct {
	model  string
	client *api.Client
	err    error
}

// prepareClient builds the client for a model in the background (resolving
// the API key may run api_key_cmd), so the first send does not wait.
func (m *Model) prepareClient(model string) tea.Cmd {
	if model == "" || m.newClient == nil {
		return nil
	}
	if _, ok := m.clients[model]; ok {
		return nil
	}
	build := m.newClient
	return func() tea.Msg {
		c, err := build(model)
		return clientReadyMsg{model: model, client: c, err: err}
	}
}

// clientReady caches a client built ahead and shows its warnings (plain
// http to a remote host, …). A failure is left for the send to report.
func (m *Model) clientReady(msg clientReadyMsg) tea.Cmd {
	if msg.err != nil || msg.client == nil {
		return nil
	}
	if _, ok := m.clients[msg.model]; ok {
		return nil
	}
	m.clients[msg.model] = msg.client
	if w := msg.client.Warnings(); len(w) > 0 {
		return m.showToast(strings.Join(w, "; "), toastWarn)
	}
	return nil
}

// startStream starts the reply to the conversation as it stands: the
// request is the whole conversation (trimmed by max_history_messages),
// preceded by the system prompt.
func (m *Model) startStream(client *api.Client) tea.Cmd {
	req := m.conv.BuildRequest(conversation.RequestOptions{
		SystemPrompt: m.systemPrompt(),
		MaxHistory:   m.maxHistory(),
	})
	replyID, err := m.startReply(m.model)
	if replyID == 0 {
		return m.showToast(err.Error(), toastErr)
	}
	m.trimmed = req.Trimmed
	m.nextID++
	ctx, cancel := context.WithCancel(m.base)
	s := &activeStream{
		id:      m.nextID,
		replyID: replyID,
		model:   m.model,
		ctx:     ctx,
		cancel:  cancel,
		pump:    newPump(),
		started: m.now(),
	}
	m.stream = s
	m.renderStatus()
	m.renderHint()
	chat := api.ChatRequest{
		Model:         m.model,
		Messages:      req.Messages,
		StreamOptions: m.catalog.StreamOptionsFor(m.model),
	}
	return tea.Batch(
		runStream(ctx, client, chat, s.pump),
		waitBatch(ctx, s.id, s.pump),
		frameTick(s.id),
	)
}

// streamBatch applies one batch of the stream in flight.
func (m *Model) streamBatch(b streamBatchMsg) tea.Cmd {
	s := m.stream
	if s == nil || b.id != s.id {
		return nil // a late batch of a stopped stream
	}
	if b.text != "" {
		if s.first.IsZero() {
			s.first = m.now()
		}
		s.chars += utf8.RuneCountInString(b.text)
		m.appendDelta(s.replyID, b.text)
	}
	if b.usage != nil {
		s.usage = b.usage
	}
	if !b.ended {
		// The status bar (rate, usage) is refreshed on the next frame tick.
		return waitBatch(s.ctx, s.id, s.pump)
	}
	m.endStream()
	var err error
	if b.err != nil {
		err = m.failReply(s.replyID, errorText(b.err))
	} else {
		err = m.finishReply(s.replyID, b.finish, s.usage)
	}
	m.recordStats(s)
	m.renderStatus()
	m.renderHint()
	if err != nil {
		return m.showToast("could not save the conversation: "+err.Error(), toastWarn)
	}
	return m.tickIfNeeded()
}

// stopStream is esc (or ctrl+c) while streaming: cancel the request and keep
// what arrived, including text still waiting in the buffer, as interrupted.
func (m *Model) stopStream() tea.Cmd {
	if err := m.interruptStream(); err != nil {
		return m.showToast("could not save the conversation: "+err.Error(), toastWarn)
	}
	return m.tickIfNeeded()
}

// interruptStream stops the reply in flight (if any) and returns the
// recorder's error.
func (m *Model) interruptStream() error {
	s := m.stream
	if s == nil {
		return nil
	}
	s.cancel()
	if b := s.pump.take(s.id); b.text != "" {
		s.chars += utf8.RuneCountInString(b.text)
		m.appendDelta(s.replyID, b.text)
	}
	m.endStream()
	err := m.interruptReply(s.replyID)
	m.recordStats(s)
	m.tr.Tick()
	m.renderStatus()
	m.renderHint()
	return err
}

// endStream forgets the stream in flight; its context is cancelled so its
// goroutines end, and late batches are ignored by id.
func (m *Model) endStream() {
	if m.stream != nil {
		m.stream.cancel()
		m.stream = nil
	}
}

// recordStats keeps the usage and the rate of the reply that just ended
// for the status bar.
func (m *Model) recordStats(s *activeStream) {
	m.lastUsage = s.usage
	m.lastRate = 0
	if s.first.IsZero() {
		return
	}
	secs := m.now().Sub(s.first).Seconds()
	if secs <= 0.05 {
		return
	}
	tokens := float64(s.chars) / 4
	if s.usage != nil && s.usage.CompletionTokens > 0 {
		tokens = float64(s.usage.CompletionTokens)
	}
	m.lastRate = tokens / secs
}

// retry answers the last user message again: after a failure, an
// interruption, or to regenerate a finished reply.
func (m *Model) retry() tea.Cmd {
	if m.stream != nil {
		return m.showToast(fmt.Sprintf("a reply is still streaming; press %s to stop it first", firstKey(m.keyMap().Cancel, "esc")), toastWarn)
	}
	if _, ok := m.conv.LastUser(); !ok {
		return m.showToast(conversation.ErrNothingToRetry.Error(), toastInfo)
	}
	if m.model == "" {
		return m.chooseModelFirst()
	}
	client, err := m.client(m.model)
	if err != nil {
		return m.showToast(err.Error(), toastErr)
	}
	if m.historyHasImages(false) {
		if err := m.catalog.Require(m.model, api.CapVision); err != nil {
			return m.showToast(err.Error(), toastErr)
		}
	}
	u, err := m.prepareRetry()
	if u.ID == 0 {
		return m.showToast(err.Error(), toastErr)
	}
	m.tr.Bottom()
	cmd := m.startStream(client)
	if err != nil {
		// The recorder failed; the reply is asked for anyway.
		cmd = tea.Batch(cmd, m.showToast("could not save the conversation: "+err.Error(), toastWarn))
	}
	return cmd
}

// editLast puts the last user message into the composer; sending replaces
// it (and its reply) in the conversation.
func (m *Model) editLast() tea.Cmd {
	u, ok := m.conv.LastUser()
	if !ok {
		return nil
	}
	m.comp.editing = true
	m.comp.editOrig = u.Text
	m.comp.setValue(u.Text)
	m.comp.attachments = append([]api.Attachment(nil), u.Attachments...)
	m.comp.setPrompt(m.ctx)
	m.composerChanged()
	m.renderStatus()
	return nil
}

// leaveEdit is esc in edit mode. Nothing is lost: the message in the
// conversation is unchanged, and text the user changed stays in the
// composer as a new message.
func (m *Model) leaveEdit() tea.Cmd {
	changed := m.comp.value() != m.comp.editOrig
	m.comp.editing = false
	m.comp.editOrig = ""
	m.comp.setPrompt(m.ctx)
	var cmd tea.Cmd
	if changed {
		cmd = m.showToast("left edit mode; your text stays in the composer as a new message", toastInfo)
	} else {
		m.comp.reset()
	}
	m.composerChanged()
	m.renderStatus()
	return cmd
}

// errorText is the one-sentence, sanitised text of a failure.
func errorText(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "the request was cancelled"
	}
	return termsafe.Sanitize(err.Error())
}
