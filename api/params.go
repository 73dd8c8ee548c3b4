package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"parley/internal/suggest"
)

// Params are the parameters of a chat request that people set: a nil
// field (an empty Stop, an empty ReasoningEffort) is not set and is not
// sent, so the model's own default applies. The config (a model's params,
// a role's), the chat's /set and ask's --param all check their values with
// the one parser of this file (ParseParam, ParamFrom), so a value refused
// in one place is refused everywhere with the same sentence.
//
// Encoded as JSON, only what is set appears, under the names of the wire
// ("max_tokens"); ChatRequest sends MaxTokens as max_completion_tokens to
// a model that takes that (Capabilities.MaxTokensField).
type Params struct {
	Temperature      *float64 `json:"temperature,omitempty"`       // 0 to 2
	TopP             *float64 `json:"top_p,omitempty"`             // 0 to 1
	MaxTokens        *int     `json:"max_tokens,omitempty"`        // at least 1
	Seed             *int64   `json:"seed,omitempty"`              // any whole number
	Stop             []string `json:"stop,omitempty"`              // 1 to 4 strings, none empty
	PresencePenalty  *float64 `json:"presence_penalty,omitempty"`  // -2 to 2
	FrequencyPenalty *float64 `json:"frequency_penalty,omitempty"` // -2 to 2
	ReasoningEffort  string   `json:"reasoning_effort,omitempty"`  // minimal, low, medium or high
}

// The parameter names, as the config, /set and --param write them.
const (
	ParamTemperature      = "temperature"
	ParamTopP             = "top_p"
	ParamMaxTokens        = "max_tokens"
	ParamSeed             = "seed"
	ParamStop             = "stop"
	ParamPresencePenalty  = "presence_penalty"
	ParamFrequencyPenalty = "frequency_penalty"
	ParamReasoningEffort  = "reasoning_effort"
)

// MaxCompletionTokens is the wire name newer OpenAI models (o1, o3, gpt-5)
// take instead of max_tokens; see Capabilities.MaxTokensField.
const MaxCompletionTokens = "max_completion_tokens"

// maxStops is how many stop strings OpenAI takes.
const maxStops = 4

// maxStopBytes bounds one stop string: stop sequences are a few
// characters, and anything longer is a paste gone wrong.
const maxStopBytes = 256

// ParamNames lists the parameters in the order they are shown.
func ParamNames() []string {
	return []string{ParamTemperature, ParamTopP, ParamMaxTokens, ParamSeed, ParamStop,
		ParamPresencePenalty, ParamFrequencyPenalty, ParamReasoningEffort}
}

// ReasoningEfforts are the values reasoning_effort takes.
func ReasoningEfforts() []string { return []string{"minimal", "low", "medium", "high"} }

// ParamHelp says in a few words what values a parameter takes, for
// completion and help: "a number from 0 to 2". "" for an unknown name.
func ParamHelp(name string) string {
	switch name {
	case ParamTemperature:
		return "a number from 0 to 2"
	case ParamTopP:
		return "a number from 0 to 1"
	case ParamPresencePenalty, ParamFrequencyPenalty:
		return "a number from -2 to 2"
	case ParamMaxTokens:
		return "a whole number of at least 1"
	case ParamSeed:
		return "a whole number"
	case ParamStop:
		return `up to 4 strings: one as it is, or several as ["a", "b"]`
	case ParamReasoningEffort:
		return "one of minimal, low, medium or high"
	}
	return ""
}

// UnknownParamError is a parameter name parley does not know.
type UnknownParamError struct{ Name string }

func (e *UnknownParamError) Error() string {
	if e.Name == MaxCompletionTokens {
		return "there is no parameter max_completion_tokens to set: set max_tokens, and declare max_tokens_field = \"max_completion_tokens\" in the model's [[models]] entry when the model takes that name"
	}
	msg := fmt.Sprintf("there is no parameter %q", e.Name)
	if s := suggest.Closest(e.Name, ParamNames()); s != "" {
		return msg + fmt.Sprintf("; did you mean %s? (parameters: %s)", s, strings.Join(ParamNames(), ", "))
	}
	return msg + "; the parameters are " + strings.Join(ParamNames(), ", ")
}

// ParseParam reads a parameter typed as text, as /set NAME VALUE and
// --param NAME=VALUE give it: a number, a whole number, a word, or for
// stop one string as it is (["a", "b"] in JSON for several). The value
// is checked as ParamFrom checks it; the error is one sentence naming
// the parameter and what it takes. The result has only that parameter
// set.
func ParseParam(name, value string) (Params, error) {
	name = strings.TrimSpace(name)
	v := strings.TrimSpace(value)
	var typed any
	switch name {
	case ParamTemperature, ParamTopP, ParamPresencePenalty, ParamFrequencyPenalty:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return Params{}, invalidParam(name, strconv.Quote(value))
		}
		typed = f
	case ParamMaxTokens, ParamSeed:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Params{}, invalidParam(name, strconv.Quote(value))
		}
		typed = n
	case ParamStop:
		if strings.HasPrefix(v, "[") {
			var list []string
			if err := json.Unmarshal([]byte(v), &list); err != nil {
				return Params{}, fmt.Errorf("stop must be one string, or several written as [\"a\", \"b\"] (JSON), not %s", strconv.Quote(value))
			}
			typed = list
		} else {
			// A stop string is taken as typed: spaces may be what stops.
			typed = value
		}
	case ParamReasoningEffort:
		typed = strings.ToLower(v)
	default:
		return Params{}, &UnknownParamError{Name: name}
	}
	return ParamFrom(name, typed)
}

// ParamFrom checks a parameter given as a typed value, as a TOML or JSON
// decoder gives it: float64 or an integer type for numbers, int64 (or a
// float64 without a fraction) for whole numbers, a string, or a list of
// strings ([]string or []any) for stop. The result has only that
// parameter set; the error is one sentence naming the parameter and what
// it takes.
func ParamFrom(name string, v any) (Params, error) {
	var p Params
	switch name {
	case ParamTemperature, ParamTopP, ParamPresencePenalty, ParamFrequencyPenalty:
		f, ok := number(v)
		lo, hi := paramRange(name)
		if !ok || math.IsNaN(f) || f < lo || f > hi {
			return Params{}, invalidParam(name, shown(v))
		}
		*p.floatField(name) = &f
	case ParamMaxTokens:
		n, ok := whole(v)
		if !ok || n < 1 || n > math.MaxInt32 {
			return Params{}, invalidParam(name, shown(v))
		}
		i := int(n)
		p.MaxTokens = &i
	case ParamSeed:
		n, ok := whole(v)
		if !ok {
			return Params{}, invalidParam(name, shown(v))
		}
		p.Seed = &n
	case ParamStop:
		stops, err := stopList(v)
		if err != nil {
			return Params{}, err
		}
		p.Stop = stops
	case ParamReasoningEffort:
		s, ok := v.(string)
		if !ok || !slices.Contains(ReasoningEfforts(), s) {
			return Params{}, invalidParam(name, shown(v))
		}
		p.ReasoningEffort = s
	default:
		return Params{}, &UnknownParamError{Name: name}
	}
	return p, nil
}

// invalidParam is the one sentence of a refused value.
func invalidParam(name, got string) error {
	return fmt.Errorf("%s must be %s, not %s", name, ParamHelp(name), got)
}

func paramRange(name string) (lo, hi float64) {
	switch name {
	case ParamTemperature:
		return 0, 2
	case ParamTopP:
		return 0, 1
	}
	return -2, 2
}

// number reads a numeric value of any Go number type.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsInf(n, 0)
	case float32:
		return float64(n), !math.IsInf(float64(n), 0)
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// whole reads an integer value; a float64 counts when it has no fraction
// (JSON decodes every number as one).
func whole(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n), true
		}
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// shown writes a refused value for a message.
func shown(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "nothing"
	case []any, []string:
		return "a list"
	case map[string]any:
		return "a table"
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// stopList checks stop: one string or a list of 1 to 4, none empty.
func stopList(v any) ([]string, error) {
	var list []string
	switch x := v.(type) {
	case string:
		list = []string{x}
	case []string:
		list = slices.Clone(x)
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("stop must hold only strings, not %s", shown(e))
			}
			list = append(list, s)
		}
	default:
		return nil, invalidParam(ParamStop, shown(v))
	}
	switch {
	case len(list) == 0:
		return nil, errors.New("stop must hold at least one string; clear it instead to send none")
	case len(list) > maxStops:
		return nil, fmt.Errorf("stop takes at most %d strings, not %d", maxStops, len(list))
	}
	for _, s := range list {
		if s == "" {
			return nil, errors.New("stop must not hold an empty string: it would stop the reply before it starts")
		}
		if len(s) > maxStopBytes {
			return nil, fmt.Errorf("stop strings must be at most %d bytes, not %d", maxStopBytes, len(s))
		}
	}
	return list, nil
}

func (p *Params) floatField(name string) **float64 {
	switch name {
	case ParamTemperature:
		return &p.Temperature
	case ParamTopP:
		return &p.TopP
	case ParamPresencePenalty:
		return &p.PresencePenalty
	case ParamFrequencyPenalty:
		return &p.FrequencyPenalty
	}
	return nil
}

// IsZero reports whether nothing is set.
func (p Params) IsZero() bool { return len(p.Names()) == 0 }

// Has reports whether the parameter is set.
func (p Params) Has(name string) bool {
	_, ok := p.Value(name)
	return ok
}

// Names lists the parameters that are set, in ParamNames order.
func (p Params) Names() []string {
	var out []string
	for _, n := range ParamNames() {
		if p.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

// Value writes a set parameter's value as ParseParam reads it back:
// "0.7", "500", "low", "###", `["a","b"]`; ok is false when it is not
// set (or the name is unknown).
func (p Params) Value(name string) (string, bool) {
	f := func(v *float64) (string, bool) {
		if v == nil {
			return "", false
		}
		return strconv.FormatFloat(*v, 'g', -1, 64), true
	}
	switch name {
	case ParamTemperature:
		return f(p.Temperature)
	case ParamTopP:
		return f(p.TopP)
	case ParamPresencePenalty:
		return f(p.PresencePenalty)
	case ParamFrequencyPenalty:
		return f(p.FrequencyPenalty)
	case ParamMaxTokens:
		if p.MaxTokens == nil {
			return "", false
		}
		return strconv.Itoa(*p.MaxTokens), true
	case ParamSeed:
		if p.Seed == nil {
			return "", false
		}
		return strconv.FormatInt(*p.Seed, 10), true
	case ParamStop:
		switch len(p.Stop) {
		case 0:
			return "", false
		case 1:
			if !strings.HasPrefix(p.Stop[0], "[") && strings.TrimSpace(p.Stop[0]) == p.Stop[0] && strconv.Quote(p.Stop[0]) == `"`+p.Stop[0]+`"` {
				return p.Stop[0], true
			}
		}
		b, _ := json.Marshal(p.Stop)
		return string(b), true
	case ParamReasoningEffort:
		return p.ReasoningEffort, p.ReasoningEffort != ""
	}
	return "", false
}

// With returns p with every parameter set in over taking over's value.
func (p Params) With(over Params) Params {
	out := p.clone()
	for _, n := range over.Names() {
		out.copyFrom(over, n)
	}
	return out
}

// Without returns p with the named parameter cleared.
func (p Params) Without(name string) Params {
	out := p.clone()
	out.copyFrom(Params{}, name)
	return out
}

// copyFrom sets (or clears) one parameter of p to src's.
func (p *Params) copyFrom(src Params, name string) {
	switch name {
	case ParamTemperature, ParamTopP, ParamPresencePenalty, ParamFrequencyPenalty:
		v := *src.floatField(name)
		if v != nil {
			x := *v
			v = &x
		}
		*p.floatField(name) = v
	case ParamMaxTokens:
		p.MaxTokens = nil
		if src.MaxTokens != nil {
			x := *src.MaxTokens
			p.MaxTokens = &x
		}
	case ParamSeed:
		p.Seed = nil
		if src.Seed != nil {
			x := *src.Seed
			p.Seed = &x
		}
	case ParamStop:
		p.Stop = slices.Clone(src.Stop)
	case ParamReasoningEffort:
		p.ReasoningEffort = src.ReasoningEffort
	}
}

// clone copies p so the copy shares no pointer with it.
func (p Params) clone() Params {
	var out Params
	for _, n := range p.Names() {
		out.copyFrom(p, n)
	}
	return out
}

// ParamLayer is one source of parameters. Layers are merged lowest
// first: the model's params in the config, then a role's, then the
// chat's /set, then ask's --param.
type ParamLayer struct {
	// Source says where the values come from, for the list /set shows and
	// for error hints: "model gpt-4o in the config", "role coder", "/set",
	// "--param".
	Source string
	// Clear says how to remove one of the layer's values, with %s where
	// the parameter's name goes: "/set %s --clear", "drop --param %s",
	// "remove %s from params of model gpt-4o in the config".
	Clear  string
	Params Params
}

// ParamSetting is one parameter in force: its value and the layer it
// comes from.
type ParamSetting struct {
	Name   string
	Value  string // as Params.Value writes it
	Source string // the layer's Source
	Clear  string // the layer's Clear with the name filled in; "" when the layer says none
}

// MergeParams merges layers, lowest first (a later layer's values win),
// and says where each value in force comes from, in ParamNames order.
func MergeParams(layers ...ParamLayer) (Params, []ParamSetting) {
	var merged Params
	from := map[string]ParamLayer{}
	for _, l := range layers {
		for _, n := range l.Params.Names() {
			merged.copyFrom(l.Params, n)
			from[n] = l
		}
	}
	var settings []ParamSetting
	for _, n := range merged.Names() {
		l := from[n]
		v, _ := merged.Value(n)
		s := ParamSetting{Name: n, Value: v, Source: l.Source}
		if l.Clear != "" {
			s.Clear = strings.ReplaceAll(l.Clear, "%s", n)
		}
		settings = append(settings, s)
	}
	return merged, settings
}

// ChatParamLayer is the chat's own layer: what /set set in this chat.
func ChatParamLayer(p Params) ParamLayer {
	return ParamLayer{Source: "/set in this chat", Clear: "/set %s --clear", Params: p}
}

// RunParamLayer is the layer of `parley ask --param`.
func RunParamLayer(p Params) ParamLayer {
	return ParamLayer{Source: "--param", Clear: "drop --param %s", Params: p}
}
