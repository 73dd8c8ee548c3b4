package api

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// UnmarshalJSON reads usage leniently. Usage is advisory: a gateway that
// sends a count as a float ("12.0") or a string ("3") still means a count,
// and a field that cannot be read as one is left at zero. A reply is never
// failed over its accounting, so this never returns an error.
func (u *Usage) UnmarshalJSON(data []byte) error {
	var w struct {
		PromptTokens     json.RawMessage `json:"prompt_tokens"`
		CompletionTokens json.RawMessage `json:"completion_tokens"`
		TotalTokens      json.RawMessage `json:"total_tokens"`
		Details          json.RawMessage `json:"completion_tokens_details"`
	}
	*u = Usage{}
	if json.Unmarshal(data, &w) != nil {
		return nil
	}
	u.PromptTokens = tokenCount(w.PromptTokens)
	u.CompletionTokens = tokenCount(w.CompletionTokens)
	u.TotalTokens = tokenCount(w.TotalTokens)
	var d struct {
		ReasoningTokens json.RawMessage `json:"reasoning_tokens"`
	}
	if len(w.Details) > 0 && json.Unmarshal(w.Details, &d) == nil && d.ReasoningTokens != nil {
		u.CompletionTokensDetails = &TokensDetails{ReasoningTokens: tokenCount(d.ReasoningTokens)}
	}
	return nil
}

// maxTokenCount bounds a count read from a gateway: far above any real
// reply, small enough that sums of a few never overflow an int.
const maxTokenCount = 1 << 40

// tokenCount reads one count: a JSON number (integral or not) or a string
// holding one. Anything else, a negative or an absurd value, is 0.
func tokenCount(raw json.RawMessage) int {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0
		}
		raw = bytes.TrimSpace([]byte(s))
	}
	if len(raw) == 0 || len(raw) > 64 {
		return 0
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		if n < 0 || n > maxTokenCount {
			return 0
		}
		return int(n)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > maxTokenCount {
		return 0
	}
	return int(math.Round(f))
}
