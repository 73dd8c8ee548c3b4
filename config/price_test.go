package config

import (
	"strings"
	"testing"
)

// input_price and output_price give a model's price; both or neither,
// numbers within range; a model without them has no price (no cost).
func TestModelPrices(t *testing.T) {
	env, _ := testEnv(t, nil)
	writeConfig(t, env, "[[models]]\nname = \"gpt-4o\"\ninput_price = 2.5\noutput_price = 10\n\n[[models]]\nname = \"llama3\"\n", 0o600)
	c := mustLoad(t, env)
	cat := c.Catalog()
	if p := cat.Price("gpt-4o"); p == nil || p.Input != 2.5 || p.Output != 10 {
		t.Fatalf("gpt-4o price %+v", p)
	}
	if p := cat.Price("llama3"); p != nil {
		t.Fatalf("llama3 price %+v, want unknown", p)
	}
	for body, wantErr := range map[string]string{
		"[[models]]\nname = \"m\"\ninput_price = 1\n":                       `:3:1: model "m" has input_price but no output_price; give both, in dollars per million tokens`,
		"[[models]]\nname = \"m\"\noutput_price = 1\n":                      `:3:1: model "m" has output_price but no input_price`,
		"[[models]]\nname = \"m\"\ninput_price = \"2\"\noutput_price = 1\n": `:3:1: input_price of model "m" must be a number of dollars per million tokens (like 2.5, without quotes), not a string`,
		"[[models]]\nname = \"m\"\ninput_price = -1\noutput_price = 1\n":    `:3:1: input_price = -1 of model "m" is out of range`,
	} {
		writeConfig(t, env, body, 0o600)
		_, err := Load(env)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%q:\n got %v\nwant …%s", body, err, wantErr)
		}
	}
}
