package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/imagepane"
	"parley/ui/keys"
	"parley/ui/overlay"
	"parley/ui/preview"
)

// op is what an action of the table does (table.go): the table says which
// key and command ask for it, and the root performs it here, in Update.
type op int

// The ops, grouped as perform routes them: the conversation, the message
// being written, the view.
const (
	opNone op = iota
	// The conversation.
	opModel
	opTheme
	opCompare
	opRole
	opSet
	opSystem
	opNew
	opSessions
	opExport
	opRetry
	opStop
	opSend
	opBranches
	opFork
	// The message being written and what it carries.
	opAttach
	opScreenshot
	opImage
	opEdit
	opPaste
	opClearComposer
	opDetach
	opAttached
	opEditLast
	opEditor
	opCopy
	opCopyCode
	// The screen and the program.
	opHelp
	opNotices
	opAbout
	opTools
	opMouse
	opQuit
	opInterrupt
	opImagePane
	opThinking
	opTop
	opBottom
	opLineUp
	opLineDown
	opPageUp
	opPageDown
)

// perform does an action's op; c says how it was asked for.
func (m *Model) perform(o op, c call) tea.Cmd {
	if o >= opHelp {
		return m.performScreen(o, c)
	}
	return m.performConversation(o, c)
}

// performConversation does the ops on the conversation and the program,
// and hands the others on.
func (m *Model) performConversation(o op, c call) tea.Cmd {
	switch o {
	case opModel:
		if c.inv.Args == "" {
			return m.openModels(chooseModel{}, overlay.ModelList{})
		}
		check, unlisted := checkModelName(m.eng, m.base, c.inv.Args)
		return tea.Batch(m.useModel(c.inv.Args, false), check, m.notes.say(unlisted))
	case opTheme:
		if c.inv.Args == "" {
			m.layers.push(layer{Component: newThemePicker(m.ctx, m.term), kind: "themes"})
			return nil
		}
		cmd := m.setTheme(c.inv.Args)
		if m.term.themeName == c.inv.Args {
			return tea.Batch(cmd, m.notes.show("theme "+m.term.themeName, toastOK))
		}
		return cmd
	case opCompare:
		cmd, n := m.cmp.command(c.inv, m.eng, m.base)
		return tea.Batch(cmd, m.notes.say(n))
	case opRole:
		n, model := roleCommand(m.eng.Conv(), m.opts, m.eng.Model(), c.inv.Args)
		return tea.Batch(m.useModel(model, false), m.notes.say(n))
	case opSet:
		return m.notes.say(setParameter(m.eng.Conv(), m.opts.Config, m.eng.Model(), c.inv.Args))
	case opSystem:
		return m.notes.say(systemPrompt(m.eng.Conv(), m.opts, c.inv.Args))
	case opNew:
		// By key, with history on screen, the first press asks for a
		// second one, so a stray key loses nothing.
		switch {
		case c.byKey() && m.eng.Conv().Len() == 0:
			return nil
		case c.byKey() && !m.armed.again(&m.armed.newConv, m.now()):
			return m.notes.show(fmt.Sprintf("press %s again to start a new conversation", firstKey(m.ctx.Keys.NewConversation, "ctrl+l")), toastInfo)
		case m.eng.Conv().Len() == 0:
			return m.notes.show("this conversation is new already", toastInfo)
		}
		return m.startNewConversation()
	case opSessions:
		l, cmd, off := m.hist.browser(m.ctx, m.base, m.eng.Conv().ID(), m.now)
		if l == nil {
			return m.notes.say(off)
		}
		m.layers.push(*l)
		// The draft is saved first, so the conversation on screen is
		// listed as it is.
		return tea.Batch(cmd, m.hist.saveDraft(m.eng.Conv().ID(), &m.comp))
	case opExport:
		cmd, n := m.hist.export(m.eng.Conv(), strings.Join(c.inv.Positional, " "), c.inv.Flags.Has("all-branches"), m.opts, m.term.started, typedLine(c.inv))
		return tea.Batch(cmd, m.notes.say(n))
	case opRetry:
		return m.retry()
	case opStop:
		switch {
		case c.byKey():
			return m.cancelKey()
		case m.eng.Reply() == nil:
			return m.notes.show("no reply is streaming", toastInfo)
		}
		m.interruptStream()
		return m.tickIfNeeded()
	case opSend:
		return m.send()
	case opBranches:
		if m.eng.Conv().Len() == 0 {
			return m.notes.show("this conversation has no messages yet, so no branches", toastInfo)
		}
		m.layers.push(layer{Component: newBranchPicker(m.ctx, m.eng.Conv(), m.now()), kind: "branches"})
		return nil
	case opFork:
		msgs := m.eng.Conv().Messages()
		if len(msgs) == 0 {
			return m.notes.show("there is nothing to fork yet: ask something first", toastInfo)
		}
		return m.fork(msgs[len(msgs)-1])
	}
	return m.performMessage(o, c)
}

// performMessage does the ops on the message being written: what it
// carries, where its text comes from, what is copied out of the chat.
func (m *Model) performMessage(o op, c call) tea.Cmd {
	switch o {
	case opAttach:
		cmd, refused := m.work.attachCommand(c.inv.Positional, m.opts, m.desktop, roomOf(m.opts, &m.pics), len(m.comp.attachments), typedLine(c.inv))
		return tea.Batch(cmd, m.notes.say(refused))
	case opScreenshot:
		name := "screenshot-" + m.now().Format("20060102-150405")
		return tea.Batch(m.work.grab(m.desktop, attachLimits(m.opts, &m.pics)).region(name), m.notes.show("draw the region to capture; esc here stops the capture", toastInfo))
	case opImage:
		if c.byKey() {
			m.layers.push(newFormLayer(m.ctx, &m.images, m.eng.Catalog(), m.eng.Listed(), m.opts.Config))
			return nil
		}
		return m.askImages(c.inv, m.images.command(c.inv, m.eng.Catalog(), m.opts.Config, m.opts.imageDir()))
	case opEdit:
		src, found := editSource(m.pane, m.comp.attachments, m.eng.Conv())
		return m.askImages(c.inv, m.images.edit(c.inv, src, found, m.eng.Catalog(), m.eng.Listed(), m.opts.Config, m.opts.Getenv("HOME")))
	case opPaste:
		return m.work.grab(m.desktop, attachLimits(m.opts, &m.pics)).clipboard()
	case opClearComposer:
		switch m.comp.clearAll() {
		case "cleared":
			return m.notes.show("message cleared; "+firstKey(m.ctx.Keys.ClearComposer, "alt+k")+" again brings it back", toastInfo)
		case "restored":
			return m.notes.show("message brought back", toastInfo)
		}
		return nil
	case opDetach:
		n, err := numberArg(c.inv, "an attachment", len(m.comp.attachments))
		if err != nil {
			return m.notes.show(err.Error(), toastErr)
		}
		return m.notes.say(m.comp.remove(n - 1))
	case opAttached:
		return m.notes.show(attachedList(m.comp.attachments), toastInfo)
	case opEditLast:
		if !c.byKey() && (m.eng.Reply() != nil || m.eng.Conv().Len() == 0) {
			return m.notes.show("there is no message to edit yet", toastInfo)
		}
		if u, ok := m.eng.Conv().LastUser(); ok {
			return m.notes.say(m.comp.editMessage(u.ID, u.Text, u.Attachments))
		}
		return nil
	case opEditor:
		return openEditor(m.opts.Getenv, m.comp.value())
	case opCopy:
		n, err := numberArg(c.inv, "a code block", 0)
		switch {
		case err != nil:
			return m.notes.show(err.Error(), toastErr)
		case n > 0:
			return m.notes.copied(copyLabelled(m.tr, m.opts.clipboardWrite(m.desktop, m.base), n))
		}
		return m.notes.copied(copyFromReply(m.eng.Conv(), m.tr, m.opts.clipboardWrite(m.desktop, m.base), 0))
	case opCopyCode:
		if n := keys.CodeBlockDigit(keys.Matched(c.key, m.ctx.Keys.CopyCode)); n > 0 {
			return m.notes.copied(copyFromReply(m.eng.Conv(), m.tr, m.opts.clipboardWrite(m.desktop, m.base), n))
		}
		m.armed.codePrefix = true
		return nil
	}
	return m.notes.show(fmt.Sprintf("parley has no way to do the action %d", o), toastErr)
}

// performScreen does the ops on the screen and the program: what it
// shows (help, notices, /about, /tools, panes, thinking, scrolling), the
// mouse, quitting.
func (m *Model) performScreen(o op, c call) tea.Cmd {
	switch o {
	case opHelp:
		m.layers.push(layer{Component: newHelp(m.ctx, m.actions.commands.Commands()), kind: "help"})
		return nil
	case opNotices:
		return m.togglePane(newNoticesPane(m.ctx))
	case opAbout:
		return m.notes.show(m.pics.about(m.opts.Version, m.term.profile), toastInfo)
	case opMouse:
		return m.notes.show(m.term.toggleMouse(), toastInfo)
	case opQuit:
		return m.quit()
	case opInterrupt:
		return m.interrupt()
	case opTools:
		return m.notes.show(toolsCommand(c.inv.Argv, m.opts.MCP, &m.layers, m.ctx))
	case opImagePane:
		return m.togglePane(imagepane.New(m.ctx, imagepane.Dirs{Home: m.opts.Getenv("HOME"), Work: m.opts.WorkDir, Save: m.opts.saveDir()}, m.pics.mode != preview.Off))
	case opThinking:
		m.tr.SetThinkingOpen(!m.tr.ThinkingOpen())
		if m.tr.ThinkingOpen() {
			return tea.Batch(m.tickIfNeeded(), m.notes.show("thinking shown in full; "+firstKey(m.ctx.Keys.ToggleThinking, "/thinking")+" folds it again", toastInfo))
		}
		return tea.Batch(m.tickIfNeeded(), m.notes.show("thinking folded to one line", toastInfo))
	case opTop:
		m.tr.List().Top()
	case opBottom:
		m.tr.List().Bottom()
	case opLineUp:
		m.tr.List().LineUp(1)
	case opLineDown:
		m.tr.List().LineDown(1)
	case opPageUp:
		m.tr.List().PageUp()
	case opPageDown:
		m.tr.List().PageDown()
	}
	return m.tickIfNeeded()
}
