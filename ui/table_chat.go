package ui

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
	"parley/ui/slash"
)

// chatActions is the chat's action table. Commands are listed in this
// order (the most used first, scrolling last); a key runs the first action whose key
// matches and whose condition holds.
func chatActions() []action {
	type cmd = slash.Command[commandEnv]
	return slices.Concat(conversationActions(), []action{
		{key: keys.NewConversation, app: true, cmd: cmd{Name: "new", Summary: "start a new conversation"}, run: newAction},
		{key: keys.Attach, cmd: cmd{Name: "attach", Args: "[PATH|URL…|latest]", Summary: "attach images or text files: pick files, name files or http(s) links, or the latest screenshot",
			Complete: completeAttach}, run: attachAction},
		{key: keys.Screenshot, cmd: cmd{Name: "screenshot", Summary: "draw a region of the screen: the screenshot is attached"}, run: screenshotAction},
		{key: keys.ImageForm, cmd: cmd{Name: "image", Args: "PROMPT", Summary: "make images from a prompt; they are saved as files",
			Flags: imageFlags(), Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return completeImage(ctx, a, env, env.imageModels)
			}}, run: func(m *Model, c call) tea.Cmd {
			if c.byKey() {
				return m.openImageForm()
			}
			return m.imageCommand(c.inv)
		}},
		{cmd: cmd{Name: "edit", Args: "PROMPT", Summary: "edit the selected or last image from a prompt",
			Flags: editFlags(), Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return completeImage(ctx, a, env, env.editModels)
			}}, run: func(m *Model, c call) tea.Cmd { return m.editCommand(c.inv) }},
		{key: keys.Images, app: true, cmd: cmd{Name: "images", Summary: "show or hide the image pane: every image of this conversation"},
			run: do((*Model).toggleImagePane)},
		{key: keys.Paste, cmd: cmd{Name: "paste", Summary: "paste the clipboard: a screenshot is attached, text is pasted"}, run: do(func(m *Model) tea.Cmd { return m.grab().clipboard() })},
		{key: keys.ClearComposer, run: do(func(m *Model) tea.Cmd {
			switch m.comp.clearAll() {
			case "cleared":
				return m.notify("message cleared; "+firstKey(m.ctx.Keys.ClearComposer, "alt+k")+" again brings it back", toastInfo)
			case "restored":
				return m.notify("message brought back", toastInfo)
			}
			return nil
		})},
		{key: keys.RemoveAttachment, cmd: cmd{Name: "detach", Args: "[n]", Summary: "remove attachment n (the last by default)"}, run: detachAction},
		{cmd: cmd{Name: "attached", Summary: "list the next message's attachments, numbered as /detach takes them"}, run: listAttachedAction},
		{key: keys.Sessions, app: true, opens: "sessions", cmd: cmd{Name: "sessions", Summary: "saved conversations: open, search, rename, delete"},
			run: do((*Model).openSessions)},
		{cmd: cmd{Name: "export", Args: "[path]", Summary: "write this conversation as Markdown (.md) or JSON (.json)",
			Flags: []slash.Flag{{Name: "all-branches", Usage: "every branch, not only the one shown"}},
			Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return slash.CompletePath(ctx, a.Word, slash.PathOptions{Dir: env.dir, Home: env.home})
			}}, run: func(m *Model, c call) tea.Cmd {
			return m.exportCommand(strings.Join(c.inv.Positional, " "), c.inv.Flags.Has("all-branches"))
		}},
		{key: keys.Retry, cmd: cmd{Name: "retry", Summary: "answer the last message again"}, run: do((*Model).retry)},
		{key: keys.CopyReply, cmd: cmd{Name: "copy", Args: "[n]", Summary: "copy the last reply, or the code block labelled [n]"}, run: copyAction},
		{key: keys.EditLast, when: composerEmpty, cmd: cmd{Name: "edit-last", Summary: "edit the last message and send it again"},
			run: func(m *Model, c call) tea.Cmd {
				if !c.byKey() && (m.eng.Reply() != nil || m.eng.Conv().Len() == 0) {
					return m.notify("there is no message to edit yet", toastInfo)
				}
				if u, ok := m.eng.Conv().LastUser(); ok {
					return editMessage(m, u.ID, u.Text, u.Attachments)
				}
				return nil
			}},
		{key: keys.Editor, cmd: cmd{Name: "editor", Summary: "write the message in $EDITOR"},
			run: do(func(m *Model) tea.Cmd { return openEditor(m.opts.Getenv, m.comp.value()) })},
		{key: keys.Cancel, cmd: cmd{Name: "stop", Summary: "stop the reply"}, run: func(m *Model, c call) tea.Cmd {
			if c.byKey() {
				return m.cancelKey()
			}
			if m.eng.Reply() == nil {
				return m.notify("no reply is streaming", toastInfo)
			}
			m.interruptStream()
			return m.tickIfNeeded()
		}},
		{key: keys.Notices, app: true, cmd: cmd{Name: "notices", Summary: "show or hide every notice of this run"},
			run: do(func(m *Model) tea.Cmd { return m.togglePane(newNoticesPane(m.ctx)) })},
		{cmd: cmd{Name: "about", Summary: "parley's version, the terminal and how pictures are drawn"}, run: do(aboutAction)},
		{key: keys.ToggleMouse, app: true, cmd: cmd{Name: "mouse", Summary: "mouse wheel scrolling on or off"}, run: do(func(m *Model) tea.Cmd { return m.notify(m.term.toggleMouse(), toastInfo) })},
		{key: keys.Help, app: true, opens: "help", cmd: cmd{Name: "help", Summary: "show every key"}, run: do(func(m *Model) tea.Cmd { m.layers.push(newHelpLayer(m.ctx, m.actions.commands.Commands())); return nil })},
		{key: keys.Quit, app: true, cmd: cmd{Name: "quit", Aliases: []string{"exit", "q"}, Summary: "quit parley"}, run: do((*Model).quit)},
		{key: keys.Send, run: do((*Model).send)},
		{key: keys.CopyCode, run: func(m *Model, c call) tea.Cmd {
			if n := keys.CodeBlockDigit(keys.Matched(c.key, m.ctx.Keys.CopyCode)); n > 0 {
				return m.copied(copyFromReply(m.eng.Conv(), m.tr, m.opts.clipboardWrite(m.desktop, m.base), n))
			}
			m.armed.codePrefix = true
			return nil
		}},
		{key: keys.Interrupt, app: true, run: do((*Model).interrupt)},
	}, treeActions(), scrollActions())
}

// treeActions go through the conversation's branches, and show its
// thinking.
func treeActions() []action {
	type cmd = slash.Command[commandEnv]
	return []action{
		{cmd: cmd{Name: "branches", Summary: "list the branches of this conversation (edits and regenerated replies) and switch"},
			run: do((*Model).openBranches)},
		{cmd: cmd{Name: "fork", Summary: "start a new session from this conversation as it is now"},
			run: do(func(m *Model) tea.Cmd {
				msgs := m.eng.Conv().Messages()
				if len(msgs) == 0 {
					return m.notify("there is nothing to fork yet: ask something first", toastInfo)
				}
				return m.fork(msgs[len(msgs)-1])
			})},
		{key: keys.ToggleThinking, when: textEmpty, cmd: cmd{Name: "thinking", Summary: "show or fold the replies' thinking (reasoning models)"},
			run: do(func(m *Model) tea.Cmd {
				m.tr.SetThinkingOpen(!m.tr.ThinkingOpen())
				if m.tr.ThinkingOpen() {
					return tea.Batch(m.tickIfNeeded(), m.notify("thinking shown in full; "+firstKey(m.ctx.Keys.ToggleThinking, "/thinking")+" folds it again", toastInfo))
				}
				return tea.Batch(m.tickIfNeeded(), m.notify("thinking folded to one line", toastInfo))
			})},
	}
}

// conversationActions are the first of the list: the model and the
// theme, and the conversation's role, parameters and system prompt.
func conversationActions() []action {
	type cmd = slash.Command[commandEnv]
	return []action{
		{key: keys.ModelPicker, app: true, opens: "models", cmd: cmd{Name: "model", Args: "[name]", Summary: "choose the model (the list, or the one named)",
			Complete: nameArg(func(env commandEnv) []string { return env.models })}, run: modelAction},
		{key: keys.ThemePicker, app: true, opens: "themes", cmd: cmd{Name: "theme", Args: "[name]", Summary: "choose the theme (the list, or the one named)",
			Complete: nameArg(func(env commandEnv) []string { return env.themes })}, run: themeAction},
		{cmd: cmd{Name: "role", Args: "[NAME|--clear]", Summary: "give this conversation a role of the config (its system prompt, model, parameters)",
			Complete: nameArg(func(env commandEnv) []string { return env.roles })},
			run: func(m *Model, c call) tea.Cmd { return m.roleCommand(c.inv.Args) }},
		{cmd: cmd{Name: "set", Args: "[NAME VALUE|NAME --clear]", Summary: "set a parameter (temperature, max_tokens, …) for this conversation; alone: what is in force",
			Complete: completeSet},
			run: func(m *Model, c call) tea.Cmd { return m.setCommand(c.inv.Args) }},
		{cmd: cmd{Name: "system", Args: "[text|--clear]", Summary: "show, set or (--clear) remove this conversation's system prompt"},
			run: func(m *Model, c call) tea.Cmd { return m.systemCommand(c.inv.Args) }},
	}
}

// scrollActions move the transcript.
func scrollActions() []action {
	type cmd = slash.Command[commandEnv]
	return []action{
		{key: keys.ScrollTop, when: textEmpty, cmd: cmd{Name: "top", Summary: "scroll to the first message"},
			run: do(func(m *Model) tea.Cmd { m.tr.List().Top(); return m.tickIfNeeded() })},
		{key: keys.ScrollBottom, when: textEmpty, cmd: cmd{Name: "bottom", Summary: "scroll to the last message"},
			run: do(func(m *Model) tea.Cmd { m.tr.List().Bottom(); return m.tickIfNeeded() })},
		{key: keys.LineUp, run: do(func(m *Model) tea.Cmd { m.tr.List().LineUp(1); return m.tickIfNeeded() })},
		{key: keys.LineDown, run: do(func(m *Model) tea.Cmd { m.tr.List().LineDown(1); return m.tickIfNeeded() })},
		{key: keys.ScrollUp, run: do(func(m *Model) tea.Cmd { m.tr.List().PageUp(); return m.tickIfNeeded() })},
		{key: keys.ScrollDown, run: do(func(m *Model) tea.Cmd { m.tr.List().PageDown(); return m.tickIfNeeded() })},
	}
}

func copyAction(m *Model, c call) tea.Cmd {
	n, err := numberArg(c.inv, "a code block", 0)
	switch {
	case err != nil:
		return m.notify(err.Error(), toastErr)
	case n > 0:
		return m.copied(copyLabelled(m.tr, m.opts.clipboardWrite(m.desktop, m.base), n))
	}
	return m.copied(copyFromReply(m.eng.Conv(), m.tr, m.opts.clipboardWrite(m.desktop, m.base), 0))
}

func modelAction(m *Model, c call) tea.Cmd {
	if c.inv.Args == "" {
		return m.openModelPicker(false)
	}
	return tea.Batch(m.useModel(c.inv.Args, false), m.checkModelName(c.inv.Args))
}

func themeAction(m *Model, c call) tea.Cmd {
	if c.inv.Args == "" {
		m.layers.push(newThemeLayer(m.ctx, m.term))
		return nil
	}
	cmd := m.setTheme(c.inv.Args)
	if m.term.themeName == c.inv.Args {
		return tea.Batch(cmd, m.notify("theme "+m.term.themeName, toastOK))
	}
	return cmd
}

func newAction(m *Model, c call) tea.Cmd {
	if !c.byKey() {
		if m.eng.Conv().Len() == 0 {
			return m.notify("this conversation is new already", toastInfo)
		}
		return m.startNewConversation()
	}
	return m.newConversationKey()
}

// screenshotAction runs the region capture; what the user draws is
// attached.
func screenshotAction(m *Model, _ call) tea.Cmd {
	name := "screenshot-" + m.now().Format("20060102-150405")
	return tea.Batch(m.grab().region(name), m.notify("draw the region to capture; esc here stops the capture", toastInfo))
}

func attachAction(m *Model, c call) tea.Cmd {
	switch {
	case len(c.inv.Positional) == 0:
		return findPickerFolder(m.opts.Getenv, m.opts.WorkDir)
	case len(c.inv.Positional) == 1 && c.inv.Positional[0] == "latest":
		// The newest screenshot; a file named so is ./latest.
		dir := ""
		if m.opts.Config != nil {
			dir = m.opts.Config.ScreenshotsDir()
		}
		return m.grab().latest(dir)
	}
	refs := make([]string, len(c.inv.Positional))
	for i, r := range c.inv.Positional {
		refs[i] = slash.ExpandHome(r, m.opts.Getenv("HOME"))
	}
	return m.attachUpTo(refs, "", false)
}

// listAttachedAction is /attached: every attachment of the next message,
// images and text files alike, numbered, in a notice (the notices pane
// shows it whole).
func listAttachedAction(m *Model, _ call) tea.Cmd {
	return m.notify(attachedList(m.comp.attachments), toastInfo)
}

func detachAction(m *Model, c call) tea.Cmd {
	n, err := numberArg(c.inv, "an attachment", len(m.comp.attachments))
	if err != nil {
		return m.notify(err.Error(), toastErr)
	}
	return m.removeAttachment(n - 1)
}

// completeAttach completes /attach: files (images and text files alike:
// the bytes decide), and "latest" for the newest screenshot.
func completeAttach(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
	out := slash.CompletePath(ctx, a.Word, slash.PathOptions{Dir: env.dir, Home: env.home})
	if a.Index == 0 && a.Flag == "" {
		out = append(out, slash.FilterCompletions(a.Word, []slash.Completion{{Value: "latest", Detail: "the newest screenshot"}})...)
	}
	return out
}
