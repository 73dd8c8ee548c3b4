package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/config"
	"parley/conversation"
	"parley/internal/homepath"
	"parley/ui/cells"
)

// roleCommand is /role: alone it says the conversation's role and the
// roles there are; /role NAME gives the conversation that role (its system
// prompt, and its model and parameters when it names them); /role --clear
// removes it.
func (m *Model) roleCommand(args string) tea.Cmd {
	name := strings.TrimSpace(args)
	switch name {
	case "":
		return m.notify(rolesSaid(m.opts.Config, m.eng.Conv().Role(), homepath.Short(m.opts.configPath(), m.opts.Getenv("HOME"))), toastInfo)
	case "--clear":
		if m.eng.Conv().Role() == "" {
			return m.notify("this conversation has no role to remove", toastInfo)
		}
		own := m.opts.ownPromptSet(m.eng.Conv())
		m.eng.Conv().SetRole("")
		if own {
			return m.notify("role removed; this conversation's own system prompt (/system) stays, and the usual parameters apply", toastOK)
		}
		m.eng.Conv().SetSystemPrompt(m.opts.ownSystemPrompt())
		return m.notify("role removed; the next reply is sent with the usual system prompt and parameters", toastOK)
	}
	r, err := m.opts.Config.FindRole(name)
	if err != nil {
		return m.notify(userSentence(err), toastErr)
	}
	own := m.opts.ownPromptSet(m.eng.Conv())
	m.eng.Conv().SetRole(r.Name)
	said := "role " + cells.OneLine(r.Name) + ": the next reply follows its system prompt"
	switch {
	case m.opts.SystemPrompt != "":
		said = "role " + cells.OneLine(r.Name) + ": its parameters apply; --system keeps this run's system prompt"
	case own:
		said = "role " + cells.OneLine(r.Name) + ": its parameters apply; this conversation's own system prompt (/system) stays, and /system --clear gives the role's"
	default:
		m.eng.Conv().SetSystemPrompt(m.opts.layerPrompt(m.eng.Conv().Role()))
	}
	if !r.Params.IsZero() {
		said += " and parameters (/set shows them)"
	}
	var cmd tea.Cmd
	if model := strings.TrimSpace(r.Model); model != "" && model != m.eng.Model() {
		said += "; model " + cells.OneLine(model)
		cmd = m.useModel(model, false)
	}
	return tea.Batch(cmd, m.notify(said, toastOK))
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
