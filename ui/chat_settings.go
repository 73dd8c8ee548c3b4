package ui

import (
	"context"
	"fmt"
	"strings"

	"parley/api"
	"parley/config"
	"parley/conversation"
	"parley/ui/slash"
)

// The conversation's settings beyond the model: its role ([[roles]] in
// the config: a system prompt, and maybe a model and parameters) and the
// parameters /set gave it. Both are the conversation's, so a reopened
// session keeps them; the parameters in force are merged at every turn
// from the model's in the config, the role's and /set's, the later winning.

// roleOf is the role the config defines for name (nil: none, or a role
// the config no longer has).
func roleOf(cfg *config.Config, name string) *config.Role {
	if name == "" || cfg == nil {
		return nil
	}
	r, ok := cfg.Role(name)
	if !ok {
		return nil
	}
	return &r
}

// paramLayers are the layers of parameters for conv's next reply from
// model, lowest first: the model's in the config, its role's, /set's.
func paramLayers(cfg *config.Config, model string, conv *conversation.Conversation) []api.ParamLayer {
	var layers []api.ParamLayer
	if cfg != nil {
		layers = cfg.ParamLayers(model, roleOf(cfg, conv.Role()))
	}
	if set := conv.Params(); !set.IsZero() {
		layers = append(layers, api.ChatParamLayer(set))
	}
	return layers
}

// setParameter is /set: alone it lists the parameters in force for model
// and where each comes from; /set NAME VALUE sets one for this
// conversation, /set NAME --clear removes what /set gave it.
func setParameter(conv *conversation.Conversation, cfg *config.Config, model, args string) noticeResult {
	name, value, _ := strings.Cut(strings.TrimSpace(args), " ")
	name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
	switch {
	case name == "":
		return noticeResult{paramsInForce(paramLayers(cfg, model, conv)), toastInfo}
	case value == "--clear":
		if !conv.Params().Has(name) {
			if _, err := api.ParseParam(name, "0"); err != nil && api.ParamHelp(name) == "" {
				return noticeResult{userSentence(err), toastErr} // the sentence naming the parameters there are
			}
			return noticeResult{fmt.Sprintf("%s was not set with /set in this conversation; /set alone shows where each value comes from", name), toastInfo}
		}
		conv.SetParams(conv.Params().Without(name))
		return noticeResult{fmt.Sprintf("%s cleared; the next reply goes without this conversation's value", name), toastOK}
	case value == "":
		return noticeResult{fmt.Sprintf("/set %s needs a value, like /set %s", name, paramExample(name)), toastErr}
	}
	one, err := api.ParseParam(name, value)
	if err != nil {
		return noticeResult{err.Error(), toastErr}
	}
	conv.SetParams(conv.Params().With(one))
	v, _ := one.Value(name)
	return noticeResult{fmt.Sprintf("%s = %s for this conversation; the next reply is sent with it (/set %s --clear removes it)", name, v, name), toastOK}
}

// paramExample is a value that reads well after /set NAME.
func paramExample(name string) string {
	switch name {
	case api.ParamTemperature:
		return name + " 0.7"
	case "reasoning_effort":
		return name + " low"
	case "stop":
		return name + " ###"
	}
	return name + " 1"
}

// paramsInForce words the parameters the next reply is sent with, each
// with its source.
func paramsInForce(layers []api.ParamLayer) string {
	_, settings := api.MergeParams(layers...)
	if len(settings) == 0 {
		return "no parameters are set: the model's defaults apply (/set NAME VALUE sets one, e.g. /set temperature 0.7)"
	}
	parts := make([]string, 0, len(settings))
	for _, s := range settings {
		parts = append(parts, fmt.Sprintf("%s = %s (%s)", s.Name, s.Value, s.Source))
	}
	return "parameters in force: " + strings.Join(parts, "; ")
}

// completeSet completes /set: a parameter's name, then for some a value.
func completeSet(_ context.Context, a slash.Arg, _ commandEnv) []slash.Completion {
	if a.Index == 0 {
		var out []slash.Completion
		for _, n := range api.ParamNames() {
			out = append(out, slash.Completion{Value: n, Detail: api.ParamHelp(n)})
		}
		return slash.FilterCompletions(a.Word, out)
	}
	if a.Index != 1 {
		return nil
	}
	out := []slash.Completion{{Value: "--clear", Detail: "remove this conversation's value"}}
	if f := strings.Fields(a.Line); len(f) > 0 && strings.ToLower(f[0]) == "reasoning_effort" {
		for _, e := range api.ReasoningEfforts() {
			out = append(out, slash.Completion{Value: e})
		}
	}
	return slash.FilterCompletions(a.Word, out)
}
