package fake

import (
	"encoding/json"
	"slices"
	"strconv"
)

// numberRange is the accepted range of a number parameter, as OpenAI
// documents it.
type numberRange struct {
	name   string
	lo, hi float64
}

func numberParams() []numberRange {
	return []numberRange{
		{"temperature", 0, 2}, {"top_p", 0, 1},
		{"presence_penalty", -2, 2}, {"frequency_penalty", -2, 2},
	}
}

// reasoningEfforts are the values reasoning_effort takes.
func reasoningEfforts() []string { return []string{"minimal", "low", "medium", "high"} }

// checkParams checks the sampling parameters the way OpenAI does (types,
// ranges, and its words), then what the model refuses: the parameters in
// ModelSpec.RejectParams, and max_tokens for a model that takes
// max_completion_tokens.
func checkParams(m map[string]any, spec ModelSpec) *apiError {
	for _, r := range numberParams() {
		v, ok := m[r.name]
		if !ok || v == nil {
			continue
		}
		n, isNum := v.(json.Number)
		if !isNum {
			return invalidType(r.name, "a number", v)
		}
		f, err := n.Float64()
		if err != nil {
			return invalidType(r.name, "a number", v)
		}
		if f < r.lo {
			return badRequest(r.name, "decimal_below_min_value", "Invalid '%s': decimal below minimum value. Expected a value >= %s, but got %s instead.", r.name, fmtNum(r.lo), n)
		}
		if f > r.hi {
			return badRequest(r.name, "decimal_above_max_value", "Invalid '%s': decimal above maximum value. Expected a value <= %s, but got %s instead.", r.name, fmtNum(r.hi), n)
		}
	}
	for _, name := range []string{"max_tokens", "max_completion_tokens"} {
		n, present, err := integer(m, name)
		if err != nil {
			return err
		}
		if present && n < 1 {
			return badRequest(name, "integer_below_min_value", "Invalid '%s': integer below minimum value. Expected a value >= 1, but got %d instead.", name, n)
		}
	}
	if _, _, err := integer(m, "seed"); err != nil {
		return err
	}
	if err := checkStop(m["stop"]); err != nil {
		return err
	}
	if e, present, err := str(m, "reasoning_effort", "reasoning_effort"); err != nil {
		return err
	} else if present && !slices.Contains(reasoningEfforts(), e) {
		return badRequest("reasoning_effort", "invalid_value", "Invalid value: '%s'. Supported values are: %s.", e, quoteList(reasoningEfforts()))
	}
	return spec.refuseParams(m)
}

// refuseParams refuses what the model does not take, in OpenAI's words.
func (spec ModelSpec) refuseParams(m map[string]any) *apiError {
	if _, ok := m["max_tokens"]; ok && spec.MaxCompletionTokens {
		return badRequest("max_tokens", "unsupported_parameter", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
	}
	for _, name := range spec.RejectParams {
		if v, ok := m[name]; ok && v != nil {
			return badRequest(name, "unsupported_parameter", "Unsupported parameter: '%s' is not supported with this model.", name)
		}
	}
	return nil
}

// checkStop accepts a string or an array of up to 4 strings.
func checkStop(v any) *apiError {
	switch s := v.(type) {
	case nil, string:
		return nil
	case []any:
		if len(s) > 4 {
			return badRequest("stop", "array_above_max_length", "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length %d instead.", len(s))
		}
		for i, e := range s {
			if _, ok := e.(string); !ok {
				return invalidType("stop["+strconv.Itoa(i)+"]", "a string", e)
			}
		}
		return nil
	}
	return invalidType("stop", "a string or an array of strings", v)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
