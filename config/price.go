package config

import (
	"math"

	"parley/api"
)

// maxPrice bounds input_price and output_price: dollars per million
// tokens past it are a unit mistake (a price per thousand, per token).
const maxPrice = 1000

// price reads input_price and output_price of a [[models]] entry: both or
// neither, each a number of dollars per million tokens.
func (l *loader) price(e map[string]any, base, model string) (*api.Price, error) {
	in, inSet, err := l.dollars(e, base, "input_price", model)
	if err != nil {
		return nil, err
	}
	out, outSet, err := l.dollars(e, base, "output_price", model)
	if err != nil {
		return nil, err
	}
	switch {
	case !inSet && !outSet:
		return nil, nil
	case !inSet:
		return nil, l.errAt(join(base, "output_price"), "model %q has output_price but no input_price; give both, in dollars per million tokens", model)
	case !outSet:
		return nil, l.errAt(join(base, "input_price"), "model %q has input_price but no output_price; give both, in dollars per million tokens", model)
	}
	return &api.Price{Input: in, Output: out}, nil
}

// dollars reads one price: a number (2.5 or 3) from 0 to maxPrice.
func (l *loader) dollars(e map[string]any, base, key, model string) (float64, bool, error) {
	v, ok := e[key]
	if !ok {
		return 0, false, nil
	}
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return 0, false, l.errAt(join(base, key), "%s of model %q must be a number of dollars per million tokens (like 2.5, without quotes), not %s", key, model, typeName(v))
	}
	if math.IsNaN(f) || f < 0 || f > maxPrice {
		return 0, false, l.errAt(join(base, key), "%s = %v of model %q is out of range; give dollars per million tokens, from 0 to %d", key, f, model, maxPrice)
	}
	return f, true, nil
}
