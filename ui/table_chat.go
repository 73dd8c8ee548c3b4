package ui

import (
	"context"
	"slices"

	"parley/ui/keys"
	"parley/ui/slash"
)

// chatActions is the chat's action table. Commands are listed in this
// order (the most used first, scrolling last); a key runs the first action whose key
// matches and whose condition holds.
func chatActions() []action {
	type cmd = slash.Command[commandEnv]
	return slices.Concat(conversationActions(), []action{
		{key: keys.NewConversation, app: true, cmd: cmd{Name: "new", Summary: "start a new conversation"}, op: opNew},
		{key: keys.Attach, cmd: cmd{Name: "attach", Args: "[PATH|URL…|latest]", Summary: "attach images or text files: pick files, name files or http(s) links, or the latest screenshot",
			Complete: completeAttach}, op: opAttach},
		{key: keys.Screenshot, cmd: cmd{Name: "screenshot", Summary: "draw a region of the screen: the screenshot is attached"}, op: opScreenshot},
		{key: keys.ImageForm, cmd: cmd{Name: "image", Args: "PROMPT", Summary: "make images from a prompt; they are saved as files",
			Flags: imageFlags(), Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return completeImage(ctx, a, env, env.imageModels)
			}}, op: opImage},
		{cmd: cmd{Name: "edit", Args: "PROMPT", Summary: "edit the selected or last image from a prompt",
			Flags: editFlags(), Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return completeImage(ctx, a, env, env.editModels)
			}}, op: opEdit},
		{key: keys.Images, app: true, cmd: cmd{Name: "images", Summary: "show or hide the image pane: every image of this conversation"},
			op: opImagePane},
		{key: keys.Paste, cmd: cmd{Name: "paste", Summary: "paste the clipboard: a screenshot is attached, text is pasted"}, op: opPaste},
		{key: keys.ClearComposer, op: opClearComposer},
		{key: keys.RemoveAttachment, cmd: cmd{Name: "detach", Args: "[n]", Summary: "remove attachment n (the last by default)"}, op: opDetach},
		{cmd: cmd{Name: "attached", Summary: "list the next message's attachments, numbered as /detach takes them"}, op: opAttached},
		{key: keys.Sessions, app: true, opens: "sessions", cmd: cmd{Name: "sessions", Summary: "saved conversations: open, search, rename, delete"},
			op: opSessions},
		{cmd: cmd{Name: "export", Args: "[path]", Summary: "write this conversation as Markdown (.md) or JSON (.json)",
			Flags: []slash.Flag{{Name: "all-branches", Usage: "every branch, not only the one shown"}},
			Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return slash.CompletePath(ctx, a.Word, slash.PathOptions{Dir: env.dir, Home: env.home})
			}}, op: opExport},
		{key: keys.Retry, cmd: cmd{Name: "retry", Summary: "answer the last message again"}, op: opRetry},
		{key: keys.CopyReply, cmd: cmd{Name: "copy", Args: "[n]", Summary: "copy the last reply, or the code block labelled [n]"}, op: opCopy},
		{key: keys.EditLast, when: whileNothingDrafted, cmd: cmd{Name: "edit-last", Summary: "edit the last message and send it again"}, op: opEditLast},
		{key: keys.Editor, cmd: cmd{Name: "editor", Summary: "write the message in $EDITOR"}, op: opEditor},
		{key: keys.Cancel, cmd: cmd{Name: "stop", Summary: "stop the reply"}, op: opStop},
		{key: keys.Notices, app: true, cmd: cmd{Name: "notices", Summary: "show or hide every notice of this run"}, op: opNotices},
		{cmd: cmd{Name: "about", Summary: "parley's version, the terminal and how pictures are drawn"}, op: opAbout},
		{key: keys.ToggleMouse, app: true, cmd: cmd{Name: "mouse", Summary: "mouse wheel scrolling on or off"}, op: opMouse},
		{key: keys.Help, app: true, opens: "help", cmd: cmd{Name: "help", Summary: "show every key"}, op: opHelp},
		{key: keys.Quit, app: true, cmd: cmd{Name: "quit", Aliases: []string{"exit", "q"}, Summary: "quit parley"}, op: opQuit},
		{key: keys.Send, op: opSend},
		{key: keys.CopyCode, op: opCopyCode},
		{key: keys.Interrupt, app: true, op: opInterrupt},
		{cmd: cmd{Name: "tools", Args: "[restart NAME]", Summary: "list the MCP servers and their tools, or restart one"}, op: opTools},
	}, treeActions(), scrollActions())
}

// treeActions go through the conversation's branches, and show its
// thinking.
func treeActions() []action {
	type cmd = slash.Command[commandEnv]
	return []action{
		{cmd: cmd{Name: "branches", Summary: "list the branches of this conversation (edits and regenerated replies) and switch"},
			op: opBranches},
		{cmd: cmd{Name: "fork", Summary: "start a new session from this conversation as it is now"}, op: opFork},
		{key: keys.ToggleThinking, when: whileTextEmpty, cmd: cmd{Name: "thinking", Summary: "show or fold the replies' thinking (reasoning models)"}, op: opThinking},
	}
}

// conversationActions are the first of the list: the model and the
// theme, and the conversation's role, parameters and system prompt.
func conversationActions() []action {
	type cmd = slash.Command[commandEnv]
	return []action{
		{key: keys.ModelPicker, app: true, opens: "models", cmd: cmd{Name: "model", Args: "[name]", Summary: "choose the model (the list, or the one named)",
			Complete: nameArg(func(env commandEnv) []string { return env.models })}, op: opModel},
		{key: keys.ThemePicker, app: true, opens: "themes", cmd: cmd{Name: "theme", Args: "[name]", Summary: "choose the theme (the list, or the one named)",
			Complete: nameArg(func(env commandEnv) []string { return env.themes })}, op: opTheme},
		{cmd: cmd{Name: "compare", Args: "MODEL MODEL [MODEL…]|off", Summary: "send your next message to 2 to 4 models at once, their replies side by side (it does not ask the last question again: R on a reply does that)",
			Complete: completeCompare}, op: opCompare},
		{cmd: cmd{Name: "role", Args: "[NAME|--clear]", Summary: "give this conversation a role of the config (its system prompt, model, parameters)",
			Complete: nameArg(func(env commandEnv) []string { return env.roles })}, op: opRole},
		{cmd: cmd{Name: "set", Args: "[NAME VALUE|NAME --clear]", Summary: "set a parameter (temperature, max_tokens, …) for this conversation; alone: what is in force",
			Complete: completeSet}, op: opSet},
		{cmd: cmd{Name: "system", Args: "[text|--clear]", Summary: "show, set or (--clear) remove this conversation's system prompt"}, op: opSystem},
	}
}

// scrollActions move the transcript.
func scrollActions() []action {
	type cmd = slash.Command[commandEnv]
	return []action{
		{key: keys.ScrollTop, when: whileTextEmpty, cmd: cmd{Name: "top", Summary: "scroll to the first message"}, op: opTop},
		{key: keys.ScrollBottom, when: whileTextEmpty, cmd: cmd{Name: "bottom", Summary: "scroll to the last message"}, op: opBottom},
		{key: keys.LineUp, op: opLineUp},
		{key: keys.LineDown, op: opLineDown},
		{key: keys.ScrollUp, op: opPageUp},
		{key: keys.ScrollDown, op: opPageDown},
	}
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
