package api

import (
	"fmt"
	"net/http"
	"strings"
)

// paramRefusal is a parameter parley sent that the gateway refused, with
// what the hint needs to say how to stop sending it.
type paramRefusal struct {
	name    string
	value   string
	setting *ParamSetting // where it came from; nil when the request did not say
	// renamed: the gateway wants max_completion_tokens for max_tokens.
	renamed bool
}

// RefusedParam names the parameter of the request the gateway refused
// (a 400 or 422 whose param field or message names a parameter parley
// sent), "" when the error is not about one.
func (e *APIError) RefusedParam() string {
	if e.param == nil {
		return ""
	}
	return e.param.name
}

// aboutParam finds the parameter the error is about: the error's param
// field when it names one that was sent (max_completion_tokens stands for
// max_tokens), else a sent parameter named in its message (vLLM writes
// "('body', 'temperature')", OpenRouter passes the provider's words on).
func (e *APIError) aboutParam(r *apiRequest) {
	if r == nil || e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusUnprocessableEntity {
		return
	}
	sent := r.params.Names()
	if len(sent) == 0 {
		return
	}
	name := ""
	field := strings.TrimSpace(e.Param)
	if field == MaxCompletionTokens {
		field = ParamMaxTokens
	}
	for _, n := range sent {
		if n == field {
			name = n
			break
		}
	}
	if name == "" {
		for _, n := range sent {
			if mentionsParam(e.Message, n) || n == ParamMaxTokens && mentionsParam(e.Message, MaxCompletionTokens) {
				name = n
				break
			}
		}
	}
	if name == "" {
		return
	}
	v, _ := r.params.Value(name)
	p := &paramRefusal{name: name, value: oneLine(v, 60)}
	for i := range r.paramSources {
		if r.paramSources[i].Name == name {
			s := r.paramSources[i]
			p.setting = &s
		}
	}
	// OpenAI: "Unsupported parameter: 'max_tokens' is not supported with
	// this model. Use 'max_completion_tokens' instead."
	p.renamed = name == ParamMaxTokens && r.maxTokensField != MaxCompletionTokens && strings.Contains(e.Message, MaxCompletionTokens)
	e.param = p
}

// hint says which parameter was refused and how to stop sending it.
func (p *paramRefusal) hint() string {
	if p.renamed {
		h := `the model takes max_completion_tokens instead of max_tokens: add max_tokens_field = "max_completion_tokens" to its [[models]] entry in the config`
		if p.setting != nil && p.setting.Clear != "" {
			h += ", or " + p.setting.Clear + " to send neither"
		}
		return h
	}
	what := fmt.Sprintf("the model refused %s = %s", p.name, p.value)
	switch {
	case p.setting == nil:
		return what + "; leave it out of the request"
	case p.setting.Clear == "":
		return what + " (from " + p.setting.Source + ")"
	}
	return what + " (from " + p.setting.Source + "); " + p.setting.Clear + " to send it no more"
}

// mentionsParam reports whether msg names the parameter as a word of its
// own. stop and seed are also everyday words, so for them the name must
// be quoted ('stop', "seed", `stop`) or followed by a colon (stop: ...).
func mentionsParam(msg, name string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		i = j + 1
		if j > 0 && isWordByte(msg[j-1]) || end < len(msg) && isWordByte(msg[end]) {
			continue
		}
		if name != ParamStop && name != ParamSeed {
			return true
		}
		if j > 0 && strings.IndexByte("'\"`", msg[j-1]) >= 0 || end < len(msg) && msg[end] == ':' {
			return true
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
