package ui

import (
	"fmt"
	"strings"

	"parley/config"
	"parley/conversation"
	"parley/internal/homepath"
	"parley/ui/cells"
)

// roleCommand is /role: alone it says the conversation's role and the
// roles there are; /role NAME gives the conversation that role (its system
// prompt, and its model and parameters when it names them); /role --clear
// removes it. It says what it did, and names the role's model when that
// is to be used from now on ("" otherwise).
func roleCommand(conv *conversation.Conversation, opts Options, current, args string) (said noticeResult, model string) {
	name := strings.TrimSpace(args)
	switch name {
	case "":
		return noticeResult{rolesSaid(opts.Config, conv.Role(), homepath.Short(opts.configPath(), opts.Getenv("HOME"))), toastInfo}, ""
	case "--clear":
		if conv.Role() == "" {
			return noticeResult{"this conversation has no role to remove", toastInfo}, ""
		}
		own := opts.ownPromptSet(conv)
		conv.SetRole("")
		if own {
			return noticeResult{"role removed; this conversation's own system prompt (/system) stays, and the usual parameters apply", toastOK}, ""
		}
		conv.SetSystemPrompt(opts.ownSystemPrompt())
		return noticeResult{"role removed; the next reply is sent with the usual system prompt and parameters", toastOK}, ""
	}
	r, err := opts.Config.FindRole(name)
	if err != nil {
		return noticeResult{userSentence(err), toastErr}, ""
	}
	own := opts.ownPromptSet(conv)
	conv.SetRole(r.Name)
	text := "role " + cells.OneLine(r.Name) + ": the next reply follows its system prompt"
	switch {
	case opts.SystemPrompt != "":
		text = "role " + cells.OneLine(r.Name) + ": its parameters apply; --system keeps this run's system prompt"
	case own:
		text = "role " + cells.OneLine(r.Name) + ": its parameters apply; this conversation's own system prompt (/system) stays, and /system --clear gives the role's"
	default:
		conv.SetSystemPrompt(opts.layerPrompt(conv.Role()))
	}
	if !r.Params.IsZero() {
		text += " and parameters (/set shows them)"
	}
	if model = strings.TrimSpace(r.Model); model != "" && model != current {
		text += "; model " + cells.OneLine(model)
	} else {
		model = ""
	}
	return noticeResult{text, toastOK}, model
}

// The system prompt comes in two layers: the role's (or, without a role,
// --system or system_prompt) and the conversation's own, set with /system,
// which replaces it while it is set. The conversation keeps only the
// prompt in force and the role's name, so the layer is told from them:
// a prompt that is not the one below was set with /system. Clearing one
// layer keeps the other.

// layerPrompt is the system prompt below /system: the role's when the
// conversation has a role whose prompt is not empty (and --system is not
// given), else --system or system_prompt.
func (o Options) layerPrompt(role string) string {
	if r := roleOf(o.Config, role); r != nil && o.SystemPrompt == "" && strings.TrimSpace(r.SystemPrompt) != "" {
		return r.SystemPrompt
	}
	return o.ownSystemPrompt()
}

// ownPromptSet reports a system prompt set with /system over the layer
// below it.
func (o Options) ownPromptSet(c *conversation.Conversation) bool {
	p := c.SystemPrompt()
	return p != "" && p != o.layerPrompt(c.Role())
}

// rolesSaid is what /role alone says: the conversation's role cur, and
// the roles the config (at where) defines.
func rolesSaid(cfg *config.Config, cur, where string) string {
	names := cfg.RoleNames()
	var b strings.Builder
	switch {
	case cur != "" && roleOf(cfg, cur) == nil:
		fmt.Fprintf(&b, "this conversation's role %s is no longer in the config, so only its system prompt stays", cells.OneLine(cur))
	case cur != "":
		fmt.Fprintf(&b, "role: %s", cells.OneLine(cur))
	default:
		b.WriteString("this conversation has no role")
	}
	if len(names) == 0 {
		fmt.Fprintf(&b, "; the config defines none: add a [[roles]] entry with name and system_prompt to %s", cells.OneLine(where))
		return b.String()
	}
	fmt.Fprintf(&b, " (roles: %s; /role NAME switches, /role --clear removes it)", cells.OneLine(strings.Join(names, ", ")))
	return b.String()
}
