package ui

import (
	"context"
	"path/filepath"
	"strings"

	"parley/api"
	"parley/chat"
	"parley/conversation"
	"parley/themes"
	"parley/ui/cells"
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
	roles                   []string
	dir, home               string
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

// completionEnv gathers what completion offers now: the models the
// engine knows, the image models, the roles and themes, the folders.
func completionEnv(eng *chat.Engine, images *imageRunner, opts Options, themes *themes.Set) commandEnv {
	env := commandEnv{}
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			env.models = append(env.models, n)
		}
	}
	cat := eng.Catalog()
	add(eng.Model())
	for _, md := range cat.Configured() {
		add(md.Name)
	}
	for _, n := range eng.Listed() {
		add(n)
	}
	env.imageModels = cat.WithListed(eng.Listed()).ModelsWith(api.CapImageGeneration)
	env.editModels = cat.WithListed(eng.Listed()).ModelsWith(api.CapImageEdit)
	env.imageModel = images.model(cat, opts.Config, api.CapImageGeneration)
	env.sizes = map[string][]string{}
	for _, n := range append(append([]string{env.imageModel}, env.imageModels...), env.editModels...) {
		if n != "" {
			env.sizes[n] = cat.Lookup(n).Caps.Sizes
		}
	}
	env.dir = opts.WorkDir
	env.home = opts.Getenv("HOME")
	env.roles = opts.Config.RoleNames()
	env.themes = append(env.themes, "auto")
	for _, t := range themes.Themes() {
		env.themes = append(env.themes, t.Name)
	}
	return env
}

// systemPrompt is /system: it shows the system prompt, or sets it for
// this conversation (the next request carries it; earlier replies stay as
// they were), and says what it did.
func systemPrompt(conv *conversation.Conversation, opts Options, text string) noticeResult {
	text = strings.TrimSpace(text)
	switch text {
	case "":
		if cur := conv.SystemPrompt(); cur != "" {
			if role := conv.Role(); role != "" && opts.ownPromptSet(conv) {
				return noticeResult{"system prompt: " + cur + " (set with /system over the role " + cells.OneLine(role) + "'s; /system TEXT changes it, /system --clear gives the role's back)", toastInfo}
			}
			return noticeResult{"system prompt: " + cur + " (/system TEXT changes it, /system --clear removes it)", toastInfo}
		}
		return noticeResult{"this conversation has no system prompt; /system TEXT sets one", toastInfo}
	case "--clear":
		if conv.SystemPrompt() == "" {
			return noticeResult{"this conversation has no system prompt to remove", toastInfo}
		}
		if role := conv.Role(); role != "" && opts.ownPromptSet(conv) && opts.layerPrompt(conv.Role()) != "" {
			conv.SetSystemPrompt(opts.layerPrompt(conv.Role()))
			return noticeResult{"system prompt removed; the role " + cells.OneLine(role) + "'s system prompt applies again", toastOK}
		}
		conv.SetSystemPrompt("")
		return noticeResult{"system prompt removed; the next reply is sent without one", toastOK}
	}
	conv.SetSystemPrompt(text)
	return noticeResult{"system prompt set for this conversation; the next reply follows it", toastOK}
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
