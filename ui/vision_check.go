package ui

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
)

// askAboutVision asks the gateway's model list whether model sees images,
// when an image was attached and nothing parley knows says it does: the
// config does not declare it, its name is not a known family with vision,
// and the list was not read this run. nil when there is nothing to ask
// (the refusal then stands as it is).
func askAboutVision(eng *chat.Engine, base context.Context, model string) tea.Cmd {
	cat, pool := eng.Catalog(), eng.Clients()
	if eng.Listed() != nil || !pool.Configured() {
		return nil
	}
	if _, said := cat.GatewaySaid(model); said {
		return nil
	}
	if md := cat.Lookup(model); md.Source == api.SourceConfig && slices.Contains(md.Declared, api.CapVision) {
		return nil
	}
	return askModelList(pool, base, model, true)
}

// visionAnswered words the gateway's answer about the vision of model
// (cat holds the list by now): the refusal of the attached images when the
// model still cannot see them, the list's own warning otherwise.
func visionAnswered(cat *api.Catalog, model string, atts []api.Attachment, msg modelCheckedMsg, warning string) string {
	if msg.name != model || !slices.ContainsFunc(atts, isImage) {
		return warning
	}
	if err := cat.Require(model, api.CapVision); err != nil {
		inChat(err)
		return err.Error()
	}
	return warning
}
