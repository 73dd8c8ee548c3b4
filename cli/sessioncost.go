package cli

import (
	"context"

	"parley/api"
	"parley/session"
)

// priceOf gives each model's price from the config ([[models]]
// input_price and output_price); a config that cannot be read gives none,
// so no cost is shown rather than a wrong one.
func (a *app) priceOf() func(string) *api.Price {
	cfg := a.completionConfig()
	if cfg == nil {
		return func(string) *api.Price { return nil }
	}
	return cfg.Catalog().Price
}

// sessionCosts are the sessions' costs in dollars, every branch counted,
// for those with a known price.
func sessionCosts(ctx context.Context, s *session.Store, list []session.Meta, price func(string) *api.Price) (map[string]float64, error) {
	ids := make([]string, len(list))
	for i, m := range list {
		ids[i] = m.ID
	}
	spent, err := s.Spending(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for id, tokens := range spent {
		if c, ok := session.Cost(tokens, price); ok {
			out[id] = c
		}
	}
	return out, nil
}
