package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"parley/api"
	"parley/config"
	"parley/conversation"
)

// askPlan is what one question goes out with, decided before anything is
// sent: the model, the role, the parameters in force and the files.
type askPlan struct {
	model   string
	role    *config.Role // nil: none
	params  []api.ParamLayer
	atts    []api.Attachment
	catalog *api.Catalog
}

// parseParamFlags reads --param NAME=VALUE (repeatable; a later one wins)
// with api's one parser: a value it refuses is a usage error naming the
// parameter and what it takes.
func parseParamFlags(flags []string) (api.Params, error) {
	var p api.Params
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return api.Params{}, usagef("--param takes NAME=VALUE, like --param temperature=0.2, not %q", f)
		}
		one, err := api.ParseParam(name, value)
		if err != nil {
			return api.Params{}, usage(fmt.Errorf("--param %s: %w", strings.TrimSpace(name), err))
		}
		p = p.With(one)
	}
	return p, nil
}

// role finds the role of the question: --role, else the role a continued
// session was using (left out with a warning when the config no longer
// has it).
func (a *app) askRole(cfg *config.Config, flag string, h *askHistory) (*config.Role, error) {
	name := strings.TrimSpace(flag)
	if name == "" {
		stored := h.role()
		if stored == "" {
			return nil, nil
		}
		r, ok := cfg.Role(stored)
		if !ok {
			a.console.warn(fmt.Sprintf("the session's role %q is no longer in the config, so this question goes without it", stored))
			return nil, nil
		}
		return &r, nil
	}
	r, err := cfg.FindRole(name)
	if err != nil {
		return nil, usage(fmt.Errorf("--role: %w", err))
	}
	return &r, nil
}

// planAsk decides the model (-m, else the role's, else the session's, else
// default_model), the parameters (the model's and the role's in the
// config, the session's /set, then --param), and reads the files of -a: a
// model without vision is refused images (text files need none), and text
// files over the caps are refused, never cut.
func (a *app) planAsk(ctx context.Context, cfg *config.Config, f askFlags, h *askHistory) (askPlan, error) {
	run, err := parseParamFlags(f.params)
	if err != nil {
		return askPlan{}, err
	}
	role, err := a.askRole(cfg, f.role, h)
	if err != nil {
		return askPlan{}, err
	}
	var p askPlan
	p.role = role
	roleModel := ""
	if role != nil {
		roleModel = strings.TrimSpace(role.Model)
	}
	if p.model, err = a.chatModel(ctx, cfg, cmp.Or(strings.TrimSpace(f.model), roleModel, strings.TrimSpace(h.model()))); err != nil {
		return askPlan{}, err
	}
	ids, said := a.knownModels(cfg)
	p.catalog = cfg.Catalog().WithListed(ids).WithGateway(said)
	p.params = cfg.ParamLayers(p.model, role)
	if set := h.params(); !set.IsZero() {
		p.params = append(p.params, api.ParamLayer{Source: "/set in this session", Clear: "open the session in the chat and /set %s --clear", Params: set})
	}
	if !run.IsZero() {
		p.params = append(p.params, api.RunParamLayer(run))
	}
	// A model without vision is refused images before any file is read
	// when the names say images: that is the first thing to change,
	// unless a file is not there at all, which no model fixes (attachAll
	// then says so). The bytes decide in the end (below): text files need
	// no vision.
	list := a.modelListerFor(ctx, cfg)
	if looksLikeImages(f.attach) && localFilesPresent(f.attach) {
		if err := requireVision(cfg, &p, list); err != nil {
			return askPlan{}, usage(err)
		}
	}
	lim := cfg.AttachLimits()
	if p.atts, err = a.attachAll(f.attach, lim); err != nil {
		return askPlan{}, err
	}
	if err := lim.CheckTextTotal(p.atts); err != nil {
		return askPlan{}, usage(err)
	}
	for _, at := range p.atts {
		if !at.IsText() {
			if err := requireVision(cfg, &p, list); err != nil {
				return askPlan{}, usage(err)
			}
			break
		}
	}
	return p, nil
}

// system is the system prompt of a new conversation: -s, else the role's,
// else system_prompt.
func (p askPlan) system(flag string, cfg *config.Config) string {
	role := ""
	if p.role != nil {
		role = p.role.SystemPrompt
	}
	return cmp.Or(strings.TrimSpace(flag), strings.TrimSpace(role), strings.TrimSpace(cfg.SystemPrompt))
}

// turnOptions are the turn's options: for a continued session -s, else a
// role's system prompt, applies to this question only.
func (p askPlan) turnOptions(flag string, cfg *config.Config, continued bool) conversation.TurnOptions {
	topts := conversation.TurnOptions{Model: p.model, Catalog: p.catalog, MaxHistory: cfg.MaxHistoryMessages}
	topts.Params, topts.ParamSources = api.MergeParams(p.params...)
	if continued {
		role := ""
		if p.role != nil {
			role = p.role.SystemPrompt
		}
		topts.SystemPrompt = cmp.Or(strings.TrimSpace(flag), strings.TrimSpace(role))
	}
	return topts
}

// looksLikeImages reports refs that are images by their names: a link, a
// data URI, or a file named like an image.
func looksLikeImages(refs []string) bool {
	for _, r := range refs {
		r = strings.ToLower(strings.TrimSpace(r))
		if strings.HasPrefix(r, "http://") || strings.HasPrefix(r, "https://") || strings.HasPrefix(r, "data:") {
			return true
		}
		switch filepath.Ext(strings.Trim(r, `'"`)) {
		case ".png", ".jpg", ".jpeg", ".webp", ".gif":
			return true
		}
	}
	return false
}

// localFilesPresent reports whether every ref that names a local file
// (not a link or a data URI) names a regular file that is there; only a
// stat, nothing is read.
func localFilesPresent(refs []string) bool {
	for _, r := range refs {
		raw := strings.TrimSpace(r)
		low := strings.ToLower(raw)
		if strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") || strings.HasPrefix(low, "data:") {
			continue
		}
		if st, err := os.Stat(raw); err == nil && st.Mode().IsRegular() {
			continue // a real name with quotes or backslashes wins, as in api.Attach
		}
		path, err := api.CleanPath(raw)
		if err != nil {
			return false
		}
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// requireVision refuses images to a model that cannot see them. When
// neither the config nor the cached model list has the gateway's word on
// the model, the gateway is asked (one listing, bounded by listTimeout,
// kept in the cache): a model it lists with image input takes images. A
// listing that fails leaves the refusal as it was.
func requireVision(cfg *config.Config, p *askPlan, list modelLister) error {
	err := p.catalog.Require(p.model, api.CapVision)
	if err == nil || cfg.Overridden() != "" {
		return err
	}
	if _, said := p.catalog.GatewaySaid(p.model); said {
		return err
	}
	if m := p.catalog.Lookup(p.model); m.Source == api.SourceConfig && slices.Contains(m.Declared, api.CapVision) {
		return err
	}
	infos, ok := list(p.model)
	if !ok {
		return err
	}
	p.catalog = p.catalog.WithListed(api.ModelIDs(infos)).WithGateway(infos)
	return p.catalog.Require(p.model, api.CapVision)
}
