package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"parley/api"
	"parley/internal/suggest"
)

// Role is one [[roles]] entry: a reusable system prompt, with a model and
// parameters of its own when it names them.
type Role struct {
	Name         string     // name: what /role NAME and --role NAME take (required, one word)
	SystemPrompt string     // system_prompt: sent first in place of the config's system_prompt
	Model        string     // model: the model the role uses; "" keeps the chat's
	Params       api.Params // params: layered over the model's params (see ParamLayers)
	Line         int        // line of the entry's [[roles]] header (0 if unknown)
}

var roleKeys = []string{"name", "system_prompt", "model", "params"}

// Role returns the [[roles]] entry with the given name.
func (c *Config) Role(name string) (Role, bool) {
	if c != nil {
		for _, r := range c.Roles {
			if r.Name == name {
				return r, true
			}
		}
	}
	return Role{}, false
}

// RoleNames lists the roles' names in file order, for completion.
func (c *Config) RoleNames() []string {
	if c == nil {
		return nil
	}
	out := make([]string, len(c.Roles))
	for i, r := range c.Roles {
		out[i] = r.Name
	}
	return out
}

// UnknownRoleError is a role name the config does not define.
type UnknownRoleError struct {
	Name  string
	Known []string
	Path  string // the config file, where roles are defined
}

func (e *UnknownRoleError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("there is no role %q: the config defines no roles; add a [[roles]] entry with name and system_prompt to %s", e.Name, e.Path)
	}
	msg := fmt.Sprintf("there is no role %q", e.Name)
	if s := suggest.Closest(e.Name, e.Known); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	return msg + " (roles: " + strings.Join(e.Known, ", ") + ")"
}

// FindRole is Role with an error that names the roles there are.
func (c *Config) FindRole(name string) (Role, error) {
	if r, ok := c.Role(name); ok {
		return r, nil
	}
	return Role{}, &UnknownRoleError{Name: name, Known: c.RoleNames(), Path: c.Path}
}

// ModelParams returns the params of the model's [[models]] entry (none
// when it has no entry).
func (c *Config) ModelParams(model string) api.Params {
	if c != nil {
		for _, m := range c.Models {
			if m.Name == model {
				return m.Params
			}
		}
	}
	return api.Params{}
}

// ParamLayers are the config's layers of parameters for a reply of model,
// lowest first: the model's params, then the role's (role nil: none). The
// chat puts its /set layer (api.ChatParamLayer) and ask its --param layer
// (api.RunParamLayer) above them before api.MergeParams.
func (c *Config) ParamLayers(model string, role *Role) []api.ParamLayer {
	var layers []api.ParamLayer
	if p := c.ModelParams(model); !p.IsZero() {
		layers = append(layers, api.ParamLayer{
			Source: fmt.Sprintf("model %s in the config", model),
			Clear:  fmt.Sprintf("remove %%s from the params of model %s in the config", escapePercent(model)),
			Params: p,
		})
	}
	if role != nil && !role.Params.IsZero() {
		layers = append(layers, api.ParamLayer{
			Source: fmt.Sprintf("role %s", role.Name),
			Clear:  fmt.Sprintf("remove %%s from the params of role %s in the config", escapePercent(role.Name)),
			Params: role.Params,
		})
	}
	return layers
}

// escapePercent keeps a name's % out of a Clear template's %s.
func escapePercent(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// params reads a params table (models[i].params, roles[i].params): every
// value is checked by api.ParamFrom, the one validator /set and --param
// use too; a name it does not know is a warning, as unknown keys are.
func (l *loader) params(tbl map[string]any, base, owner string) (api.Params, error) {
	v, ok := tbl["params"]
	if !ok {
		return api.Params{}, nil
	}
	at := join(base, "params")
	t, ok := v.(map[string]any)
	if !ok {
		return api.Params{}, l.errAt(at, "params of %s must be a table such as params = { temperature = 0.7, max_tokens = 500 }, not %s", owner, typeName(v))
	}
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := l.pos.at(join(at, names[i])), l.pos.at(join(at, names[j]))
		return a.line < b.line || a.line == b.line && names[i] < names[j]
	})
	var p api.Params
	for _, name := range names {
		if !slices.Contains(api.ParamNames(), name) {
			msg := fmt.Sprintf("unknown parameter %q in the params of %s (ignored)", name, owner)
			if name == api.MaxCompletionTokens {
				msg += `; write max_tokens, and max_tokens_field = "max_completion_tokens" in the model's [[models]] entry`
			} else if s := suggest.Closest(name, api.ParamNames()); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			l.warnAt(join(at, name), "%s", msg)
			continue
		}
		one, err := api.ParamFrom(name, t[name])
		if err != nil {
			return api.Params{}, l.errAt(join(at, name), "in the params of %s: %v", owner, err)
		}
		p = p.With(one)
	}
	return p, nil
}

// maxTokensField reads max_tokens_field of a [[models]] entry.
func (l *loader) maxTokensField(e map[string]any, base, model string) (string, error) {
	f, err := l.str(e, base, "max_tokens_field")
	if err != nil {
		return "", err
	}
	switch f {
	case "", api.ParamMaxTokens:
		return "", nil
	case api.MaxCompletionTokens:
		return f, nil
	}
	return "", l.errAt(base+".max_tokens_field", `max_tokens_field of model %q is %q; write "max_completion_tokens" (for models that refuse max_tokens) or "max_tokens"`, model, f)
}

func (l *loader) roles(doc map[string]any) error {
	entries, err := l.tables(doc, "roles")
	if err != nil {
		return err
	}
	c := l.c
	for i, e := range entries {
		base := fmt.Sprintf("roles[%d]", i)
		l.unknownKeys(e, base, "in [[roles]]", roleKeys)
		r := Role{Line: l.pos.at(base).line}
		if r.Name, err = l.str(e, base, "name"); err != nil {
			return err
		}
		switch {
		case strings.TrimSpace(r.Name) == "":
			return l.errAt(base, `this [[roles]] entry has no name; add name = "..." so /role and --role can find it`)
		case strings.IndexFunc(r.Name, func(c rune) bool { return unicode.IsSpace(c) || !unicode.IsPrint(c) }) >= 0:
			return l.errAt(base+".name", "role name %q must be one word without spaces, as /role NAME takes it", r.Name)
		}
		if prev, ok := c.Role(r.Name); ok {
			return l.errAt(base+".name", "a role named %q is already defined on line %d; give each role its own name", r.Name, prev.Line)
		}
		if r.SystemPrompt, err = l.str(e, base, "system_prompt"); err != nil {
			return err
		}
		if r.Model, err = l.str(e, base, "model"); err != nil {
			return err
		}
		if r.Params, err = l.params(e, base, "role "+r.Name); err != nil {
			return err
		}
		if r.SystemPrompt == "" && r.Model == "" && r.Params.IsZero() {
			l.warnAt(base, "role %q sets neither system_prompt, model nor params, so choosing it changes nothing", r.Name)
		}
		c.Roles = append(c.Roles, r)
	}
	return nil
}
