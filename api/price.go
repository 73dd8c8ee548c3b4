package api

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Price is what a model costs, in dollars per million tokens: Input for
// the prompt's tokens, Output for the completion's (its reasoning
// included, as gateways bill it). A nil *Price is unknown: no cost is
// shown for it, never a cost of zero.
type Price struct {
	Input, Output float64
}

// Cost is what usage cost at p: false when the price or the usage is not
// known.
func (p *Price) Cost(u *Usage) (float64, bool) {
	if p == nil || u == nil {
		return 0, false
	}
	return (float64(u.PromptTokens)*p.Input + float64(u.CompletionTokens)*p.Output) / 1e6, true
}

// FormatCost says a cost in dollars as a status line shows it: "$0.0042",
// "$0.31", "$12.40" (four decimals under a cent, else two), "<$0.0001"
// for a cost too small to show.
func FormatCost(c float64) string {
	switch {
	case c <= 0:
		return "$0.00"
	case c < 0.0001:
		return "<$0.0001"
	case c < 0.01:
		return "$" + strconv.FormatFloat(c, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(c, 'f', 2, 64)
}

// maxPricePerMillion bounds a price read from a gateway: a price past a
// thousand dollars per million tokens is a unit mistake (or hostile), not
// a price, and is left unknown.
const maxPricePerMillion = 1000

// ModelPrices reads the prices of a model list that carries them, as
// OpenRouter's does: {"data":[{"id":…,"pricing":{"prompt":"0.000003",
// "completion":"0.000015"}}]}, dollars per token as strings (or
// numbers). Models without both prices, or with prices that are not
// numbers from 0 to a thousand dollars per million tokens, are left out:
// their price is unknown. data is the list's body, whose size its reader
// bounded.
func ModelPrices(data []byte) map[string]Price {
	type entry struct {
		ID      string `json:"id"`
		Pricing *struct {
			Prompt     json.RawMessage `json:"prompt"`
			Completion json.RawMessage `json:"completion"`
		} `json:"pricing"`
	}
	var list []entry
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		if json.Unmarshal(data, &list) != nil {
			return nil
		}
	} else {
		var reply struct {
			Data []entry `json:"data"`
		}
		if json.Unmarshal(data, &reply) != nil {
			return nil
		}
		list = reply.Data
	}
	out := map[string]Price{}
	for _, e := range list {
		if e.ID == "" || e.Pricing == nil {
			continue
		}
		in, ok1 := perMillion(e.Pricing.Prompt)
		outp, ok2 := perMillion(e.Pricing.Completion)
		if ok1 && ok2 {
			out[e.ID] = Price{Input: in, Output: outp}
		}
	}
	return out
}

// perMillion reads a price per token (a JSON string or number) as dollars
// per million tokens.
func perMillion(raw json.RawMessage) (float64, bool) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < 0 {
		return 0, false
	}
	v *= 1e6
	if v > maxPricePerMillion {
		return 0, false
	}
	return v, true
}

// WithPrices returns a copy of the catalog that knows the prices the
// gateway's model list gave (ModelPrices); a price of the config wins.
func (c *Catalog) WithPrices(prices map[string]Price) *Catalog {
	n := &Catalog{}
	if c != nil {
		*n = *c
	}
	n.prices = make(map[string]Price, len(prices))
	for id, p := range prices {
		n.prices[id] = p
	}
	return n
}

// Price is what model costs: its [[models]] entry's prices, else the
// gateway's list's; nil when neither says.
func (c *Catalog) Price(model string) *Price {
	if m, ok := c.configuredModel(model); ok && m.Price != nil {
		p := *m.Price
		return &p
	}
	if c == nil {
		return nil
	}
	if p, ok := c.prices[model]; ok {
		return &p
	}
	return nil
}

// ListModelsPriced is ListModels with the prices the list gives
// (ModelPrices: OpenRouter's pricing), from the one request.
func (c *Client) ListModelsPriced(ctx context.Context) ([]string, map[string]Price, error) {
	list, prices, err := c.ListModelCatalog(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ModelIDs(list), prices, nil
}
