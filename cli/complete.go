package cli

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"parley/api"
	"parley/config"
	"parley/internal/demo"
	"parley/session"
	"parley/termsafe"
	"parley/themes"
)

// Shell completion (bash, zsh, fish, powershell through cobra's
// "completion" command) for model names, themes, image sizes and files.
// Completion runs on every tab press: it reads the config file, the theme
// directory and the model cache, and never the network, a key command or
// a gateway.

// maxCompletions bounds what one tab press offers.
const maxCompletions = 500

// commonSizes are offered for --size when the model lists no sizes: the
// sizes OpenAI's image models take.
func commonSizes() []string {
	return []string{"1024x1024", "1536x1024", "1024x1536", "1792x1024", "1024x1792", "512x512", "256x256", "auto"}
}

// modelKind is what a --model flag wants.
type modelKind int

const (
	chatModels modelKind = iota
	imageModels
)

// completionShells are the shells cobra writes completion scripts for.
func completionShells() []string { return []string{"bash", "zsh", "fish", "powershell"} }

// checkCompletionCommand makes "parley completion SHELL" with a shell
// parley has no script for a usage error (cobra shows the help and exits
// 0). Without a shell the help is shown, as before. It runs once the
// root's output is set: cobra's completion commands keep the writer they
// find when they are made.
func checkCompletionCommand(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			return usagef("there is no completion script for %q; the shells are %s (e.g. parley completion bash)", args[0], strings.Join(completionShells(), ", "))
		}
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
}

// registerCompletions attaches completion functions to the flags and
// arguments of every command.
func (a *app) registerCompletions(root *cobra.Command) {
	imageFiles := cobra.FixedCompletions([]string{"png", "jpg", "jpeg", "webp", "gif"}, cobra.ShellCompDirectiveFilterFileExt)
	_ = root.RegisterFlagCompletionFunc("config", cobra.FixedCompletions([]string{"toml"}, cobra.ShellCompDirectiveFilterFileExt))
	_ = root.RegisterFlagCompletionFunc("demo-dps", cobra.NoFileCompletions)
	for _, cmd := range append([]*cobra.Command{root}, root.Commands()...) {
		kind := chatModels
		if cmd.Name() == "image" {
			kind = imageModels
		}
		if cmd.ValidArgsFunction == nil {
			// Prompts are free text: offering file names would mislead.
			cmd.ValidArgsFunction = cobra.NoFileCompletions
		}
		register := func(flag string, f cobra.CompletionFunc) {
			if cmd.LocalFlags().Lookup(flag) != nil {
				_ = cmd.RegisterFlagCompletionFunc(flag, f)
			}
		}
		register("model", a.completeModels(kind))
		register("theme", a.completeThemes)
		register("size", a.completeSizes)
		if cmd.Name() == "ask" {
			// Images and text files of any name: every file.
			register("attach", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return nil, cobra.ShellCompDirectiveDefault
			})
		} else {
			register("attach", imageFiles)
		}
		register("role", a.completeRoles)
		register("param", completeParams)
		register("edit", imageFiles)
		register("mask", cobra.FixedCompletions([]string{"png"}, cobra.ShellCompDirectiveFilterFileExt))
		register("out", cobra.FixedCompletions(nil, cobra.ShellCompDirectiveFilterDirs))
		register("system", cobra.NoFileCompletions)
		register("n", cobra.NoFileCompletions)
		register("session", func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return completeSessionIDs(a.env, true)(cmd, nil, toComplete)
		})
	}
}

// completeRoles offers the config's roles, each with the start of its
// system prompt.
func (a *app) completeRoles(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cfg := a.completionConfig()
	if cfg == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, r := range cfg.Roles {
		if strings.HasPrefix(r.Name, toComplete) && validModelID(r.Name) {
			desc := []rune(strings.Join(strings.Fields(termsafe.Sanitize(r.SystemPrompt)), " "))
			if len(desc) > 60 {
				desc = append(desc[:59], '…')
			}
			out = append(out, cobra.CompletionWithDesc(r.Name, string(desc)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeParams offers NAME= for --param, with what each takes; once the
// name is typed, nothing (the value is the user's).
func completeParams(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if strings.Contains(toComplete, "=") {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, n := range api.ParamNames() {
		if strings.HasPrefix(n, toComplete) {
			out = append(out, cobra.CompletionWithDesc(n+"=", api.ParamHelp(n)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completionConfig loads the configuration quietly (completion output must
// stay clean) and, with --demo, points it at the demo's models without
// starting the demo gateway. nil when the file cannot be read.
func (a *app) completionConfig() *config.Config {
	cfg, err := config.Load(config.Env{Getenv: a.env.Getenv, HomeDir: a.env.HomeDir, Path: a.cfgPath})
	if err != nil {
		return nil
	}
	if a.demo {
		cfg.ApplyOverride(demo.ModelsOverride())
	}
	return cfg
}

// completeModels offers the configured models (with --demo, the demo's)
// and the models the gateways listed when `parley models` last ran, each
// with its capabilities; --model of `parley image` offers image models,
// the others chat models.
func (a *app) completeModels(kind modelKind) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg := a.completionConfig()
		if cfg == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		for _, m := range cfg.ModelList() {
			names = append(names, m.Name)
		}
		if !a.demo {
			cache := loadModelCache(modelCachePath(a.env.Getenv, a.env.HomeDir))
			for _, p := range cfg.Providers {
				names = append(names, cache.models(p.BaseURL)...)
			}
		}
		catalog := cfg.Catalog()
		var out []cobra.Completion
		seen := map[string]bool{}
		for _, name := range names {
			if seen[name] || !validModelID(name) || !strings.HasPrefix(name, toComplete) {
				continue
			}
			seen[name] = true
			caps := catalog.Lookup(name).Caps
			isImage := caps.ImageGeneration || caps.ImageEdit
			if (kind == imageModels) != isImage {
				continue
			}
			out = append(out, cobra.CompletionWithDesc(name, caps.Summary()))
			if len(out) == maxCompletions {
				break
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeThemes offers "auto", the built-in themes and the user's themes.
func (a *app) completeThemes(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	all := []cobra.Completion{cobra.CompletionWithDesc(themes.Auto, "dark or light, following the terminal's background")}
	list := themes.Builtins()
	if dir := config.Dir(config.Env{Getenv: a.env.Getenv, HomeDir: a.env.HomeDir}); dir != "" {
		user, _ := themes.LoadDir(filepath.Join(dir, "themes"))
		list = append(list, user...)
	}
	seen := map[string]bool{}
	for _, t := range list {
		key := strings.ToLower(t.Name)
		if seen[key] || !validModelID(t.Name) {
			continue
		}
		seen[key] = true
		desc := "light background"
		if t.Dark {
			desc = "dark background"
		}
		if t.Source != "builtin" {
			desc += ", your theme"
		}
		all = append(all, cobra.CompletionWithDesc(t.Name, desc))
	}
	return filterPrefix(all, toComplete), cobra.ShellCompDirectiveNoFileComp
}

// completeSizes offers the sizes the image model (--model, else
// image_model) lists, else common sizes (with --demo, the demo's).
func (a *app) completeSizes(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	sizes := commonSizes()
	if cfg := a.completionConfig(); cfg != nil {
		model, _ := cmd.Flags().GetString("model")
		model = cmp.Or(strings.TrimSpace(model), strings.TrimSpace(cfg.ImageModel), defaultImageModel)
		if s := cfg.Catalog().Lookup(model).Caps.Sizes; len(s) > 0 {
			sizes = s
		} else if a.demo {
			sizes = demo.ImageSizes()
		}
	}
	return filterPrefix(slices.Clone(sizes), toComplete), cobra.ShellCompDirectiveNoFileComp
}

// completeSessionIDs offers the ids of saved sessions (newest first, the
// title as the description) for commands that take session ids: the
// first argument, or every argument when many is set.
func completeSessionIDs(env Env, many bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 && !many {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		dir := session.DefaultDir(env.Getenv, env.HomeDir)
		choices, err := session.CompleteIDs(cmd.Context(), dir, toComplete, maxCompletions)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, c := range choices {
			if slices.Contains(args, c.ID) || !validModelID(c.ID) {
				continue
			}
			title := strings.Join(strings.Fields(termsafe.Sanitize(c.Title)), " ")
			if title == "" {
				title = "(untitled)"
			}
			out = append(out, cobra.CompletionWithDesc(c.ID, title))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// filterPrefix keeps the completions whose value starts with prefix.
func filterPrefix(all []cobra.Completion, prefix string) []cobra.Completion {
	var out []cobra.Completion
	for _, c := range all {
		value, _, _ := strings.Cut(c, "\t")
		if strings.HasPrefix(value, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// validModelID accepts a name that is safe to hand a shell's completion:
// not empty, not too long, valid UTF-8 without white space, control or
// format characters (a line break would add a completion, an escape would
// reach the terminal, a bidi override would disguise the name).
func validModelID(s string) bool {
	if s == "" || len(s) > maxModelIDBytes || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}
