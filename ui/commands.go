package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/slash"
)

// commandEnv is what completion reads: a fresh value is handed to the list
// each time it opens, so a running completion never sees it change.
type commandEnv struct {
	models []string
	// imageModels are the models that generate or edit; sizes are what
	// each accepts (by model name), imageModel the one /image uses.
	imageModels, editModels []string
	sizes                   map[string][]string
	imageModel              string
	themes                  []string
	dir, home               string
}

// newCommands registers the slash commands: every action of the key table
// that makes sense typed, plus /system. Later features add theirs here.
func newCommands() *slash.Registry[commandEnv] {
	r := slash.NewRegistry[commandEnv]()
	err := r.Register(
		slash.Command[commandEnv]{Name: "model", Args: "[name]", Summary: "choose the model (the list, or the one named)", Action: keys.ModelPicker,
			Complete: func(_ context.Context, a slash.Arg, env commandEnv) []slash.Completion { return words(env.models, a) }},
		slash.Command[commandEnv]{Name: "theme", Args: "[name]", Summary: "choose the theme (the list, or the one named)", Action: keys.ThemePicker,
			Complete: func(_ context.Context, a slash.Arg, env commandEnv) []slash.Completion { return words(env.themes, a) }},
		slash.Command[commandEnv]{Name: "system", Args: "[text]", Summary: "show or set this conversation's system prompt"},
		slash.Command[commandEnv]{Name: "new", Summary: "start a new conversation", Action: keys.NewConversation},
		slash.Command[commandEnv]{Name: "attach", Args: "[PATH|URL…]", Summary: "attach images: pick files, or name files or http(s) links", Action: keys.Attach,
			Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return slash.CompletePath(ctx, a.Word, slash.PathOptions{Dir: env.dir, Home: env.home, Keep: isImageName})
			}},
		slash.Command[commandEnv]{Name: "image", Args: "PROMPT", Summary: "make images from a prompt; they are saved as files", Action: keys.ImageForm,
			Flags: imageFlags(), Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return completeImage(ctx, a, env, env.imageModels)
			}},
		slash.Command[commandEnv]{Name: "edit", Args: "PROMPT", Summary: "edit the selected or last image from a prompt",
			Flags: editFlags(), Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return completeImage(ctx, a, env, env.editModels)
			}},
		slash.Command[commandEnv]{Name: "images", Summary: "show or hide the image pane: every image of this conversation", Action: keys.Images},
		slash.Command[commandEnv]{Name: "paste", Summary: "paste the clipboard: a screenshot is attached, text is pasted", Action: keys.Paste},
		slash.Command[commandEnv]{Name: "detach", Args: "[n]", Summary: "remove attachment n (the last by default)", Action: keys.RemoveAttachment},
		slash.Command[commandEnv]{Name: "sessions", Summary: "saved conversations: open, search, rename, delete", Action: keys.Sessions},
		slash.Command[commandEnv]{Name: "export", Args: "[path]", Summary: "write this conversation as Markdown (.md) or JSON (.json)",
			Complete: func(ctx context.Context, a slash.Arg, env commandEnv) []slash.Completion {
				return slash.CompletePath(ctx, a.Word, slash.PathOptions{Dir: env.dir, Home: env.home})
			}},
		slash.Command[commandEnv]{Name: "retry", Summary: "answer the last message again", Action: keys.Retry},
		slash.Command[commandEnv]{Name: "copy", Args: "[n]", Summary: "copy the last reply, or its code block n", Action: keys.CopyReply},
		slash.Command[commandEnv]{Name: "edit-last", Summary: "edit the last message and send it again", Action: keys.EditLast},
		slash.Command[commandEnv]{Name: "editor", Summary: "write the message in $EDITOR", Action: keys.Editor},
		slash.Command[commandEnv]{Name: "stop", Summary: "stop the reply", Action: keys.Cancel},
		slash.Command[commandEnv]{Name: "top", Summary: "scroll to the first message", Action: keys.ScrollTop},
		slash.Command[commandEnv]{Name: "bottom", Summary: "scroll to the last message", Action: keys.ScrollBottom},
		slash.Command[commandEnv]{Name: "notices", Summary: "show or hide every notice of this run", Action: keys.Notices},
		slash.Command[commandEnv]{Name: "mouse", Summary: "mouse wheel scrolling on or off", Action: keys.ToggleMouse},
		slash.Command[commandEnv]{Name: "help", Summary: "show every key", Action: keys.Help},
		slash.Command[commandEnv]{Name: "quit", Aliases: []string{"exit", "q"}, Summary: "quit parley", Action: keys.Quit},
	)
	if err != nil {
		// The table above is fixed: a mistake in it is a bug found by
		// every test that builds a model.
		panic(err)
	}
	return r
}

// words completes a word from a list (model and theme names).
func words(list []string, a slash.Arg) []slash.Completion {
	if a.Index > 0 {
		return nil
	}
	out := make([]slash.Completion, 0, len(list))
	for _, w := range list {
		out = append(out, slash.Completion{Value: w})
	}
	return slash.FilterCompletions(a.Word, out)
}

// commandEnv gathers what completion offers now.
func (m *Model) commandEnv() commandEnv {
	env := commandEnv{}
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			env.models = append(env.models, n)
		}
	}
	add(m.model)
	for _, md := range m.catalog.Configured() {
		add(md.Name)
	}
	for _, n := range m.gatewayModels {
		add(n)
	}
	env.imageModels = m.catalog.WithListed(m.gatewayModels).ModelsWith(api.CapImageGeneration)
	env.editModels = m.catalog.WithListed(m.gatewayModels).ModelsWith(api.CapImageEdit)
	env.imageModel = m.imageModel(api.CapImageGeneration)
	env.sizes = map[string][]string{}
	for _, n := range append(append([]string{env.imageModel}, env.imageModels...), env.editModels...) {
		if n != "" {
			env.sizes[n] = m.catalog.Lookup(n).Caps.Sizes
		}
	}
	env.dir, _ = os.Getwd()
	env.home = m.opts.Getenv("HOME")
	env.themes = append(env.themes, "auto")
	for _, t := range m.themes.Themes() {
		env.themes = append(env.themes, t.Name)
	}
	return env
}

// runCommand dispatches a parsed command line. It runs in Update, like a
// key: a command is another way to press one.
func (m *Model) runCommand(inv slash.Invocation) tea.Cmd {
	switch inv.Name {
	case "model":
		if inv.Args == "" {
			return m.openModelPicker(false)
		}
		return m.useModel(inv.Args, false)
	case "theme":
		if inv.Args == "" {
			return m.openThemePicker()
		}
		cmd := m.setTheme(inv.Args)
		if m.themeName == inv.Args {
			return tea.Batch(cmd, m.notify("theme "+m.themeName, toastOK))
		}
		return cmd
	case "system":
		return m.systemCommand(inv.Args)
	case "new":
		if m.conv.Len() == 0 {
			return m.notify("this conversation is new already", toastInfo)
		}
		m.newArmed = m.now()
		return m.newConversationKey()
	case "retry":
		return m.retry()
	case "copy":
		if inv.Args == "" {
			return m.copyReply()
		}
		n, err := strconv.Atoi(inv.Args)
		if err != nil || n < 1 {
			return m.notify(fmt.Sprintf("/copy takes the number of a code block, like /copy 2, not %q", cells.OneLine(inv.Args)), toastErr)
		}
		return m.copyCode(n)
	case "edit-last":
		if m.stream != nil || m.conv.Len() == 0 {
			return m.notify("there is no message to edit yet", toastInfo)
		}
		return m.editLast()
	case "editor":
		return openEditor(m.opts.Getenv, m.comp.value())
	case "stop":
		if m.stream == nil {
			return m.notify("no reply is streaming", toastInfo)
		}
		return m.stopStream()
	case "top":
		m.tr.Top()
		return m.tickIfNeeded()
	case "bottom":
		m.tr.Bottom()
		return m.tickIfNeeded()
	case "attach":
		if len(inv.Positional) == 0 {
			return m.openFilePicker()
		}
		refs := make([]string, len(inv.Positional))
		for i, r := range inv.Positional {
			refs[i] = slash.ExpandHome(r, m.opts.Getenv("HOME"))
		}
		return attachRefs(refs, "", m.attachLimits())
	case "image":
		return m.imageCommand(inv)
	case "edit":
		return m.editCommand(inv)
	case "images":
		return m.toggleImagePane()
	case "paste":
		return m.readClipboard()
	case "detach":
		if inv.Args == "" {
			return m.removeAttachment(-1)
		}
		n, err := strconv.Atoi(inv.Args)
		if err != nil || n < 1 || n > len(m.comp.attachments) {
			return m.notify(fmt.Sprintf("/detach takes the number of an attachment, 1 to %d", len(m.comp.attachments)), toastErr)
		}
		return m.removeAttachment(n - 1)
	case "sessions":
		return m.openSessions()
	case "export":
		return m.exportCommand(inv.Args)
	case "notices":
		return m.togglePane(&noticesPane{})
	case "mouse":
		return m.toggleMouse()
	case "help":
		return m.openHelp()
	case "quit":
		return m.quit()
	}
	return m.notify("the command /"+termsafe.Sanitize(inv.Name)+" is not handled", toastErr)
}

// systemCommand shows the system prompt, or sets it for this conversation
// (the next request carries it; earlier replies stay as they were).
func (m *Model) systemCommand(text string) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		if cur := m.conv.SystemPrompt(); cur != "" {
			return m.notify("system prompt: "+cur+" (/system TEXT changes it)", toastInfo)
		}
		return m.notify("this conversation has no system prompt; /system TEXT sets one", toastInfo)
	}
	m.conv.SetSystemPrompt(text)
	return m.notify("system prompt set for this conversation; the next reply follows it", toastOK)
}

// isImageName keeps the files path completion offers to /attach: images
// by their extension (the bytes decide when they are attached).
func isImageName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// completeImage completes the options of /image and /edit: --model from the
// models that can make images, --size from what the model accepts, --mask
// from image files.
func completeImage(ctx context.Context, a slash.Arg, env commandEnv, models []string) []slash.Completion {
	switch a.Flag {
	case "model":
		return words(models, slash.Arg{Word: a.Word})
	case "size":
		model := env.imageModel
		if f := strings.Fields(a.Line); len(f) > 0 {
			for i := 0; i+1 < len(f); i++ {
				if f[i] == "--model" {
					model = f[i+1]
				}
			}
		}
		return words(env.sizes[model], slash.Arg{Word: a.Word})
	case "mask":
		return slash.CompletePath(ctx, a.Word, slash.PathOptions{Dir: env.dir, Home: env.home, Keep: isImageName})
	}
	return nil
}
