package api

import "testing"

func TestPriceCost(t *testing.T) {
	p := &Price{Input: 2.5, Output: 10}
	c, ok := p.Cost(&Usage{PromptTokens: 1000, CompletionTokens: 500})
	if !ok || c != 0.0075 {
		t.Fatalf("cost %v %v", c, ok)
	}
	if _, ok := (*Price)(nil).Cost(&Usage{PromptTokens: 1}); ok {
		t.Fatal("an unknown price gave a cost")
	}
	if _, ok := p.Cost(nil); ok {
		t.Fatal("an unknown usage gave a cost")
	}
	for c, want := range map[float64]string{0.0075: "$0.0075", 0.31: "$0.31", 12.4: "$12.40", 0.00001: "<$0.0001", 0: "$0.00"} {
		if got := FormatCost(c); got != want {
			t.Errorf("FormatCost(%v) = %q, want %q", c, got, want)
		}
	}
}

// OpenRouter's pricing gives dollars per token as strings; a model
// without it, or with a price that is not one, stays unknown.
func TestModelPrices(t *testing.T) {
	body := `{"data":[
		{"id":"anthropic/claude","pricing":{"prompt":"0.000003","completion":"0.000015"}},
		{"id":"free/model","pricing":{"prompt":"0","completion":0}},
		{"id":"plain"},
		{"id":"odd","pricing":{"prompt":"-1","completion":"0.1"}},
		{"id":"huge","pricing":{"prompt":"5","completion":"5"}},
		{"id":"half","pricing":{"prompt":"0.000001"}}
	]}`
	got := ModelPrices([]byte(body))
	if p := got["anthropic/claude"]; len(got) != 2 || p.Input < 2.999 || p.Input > 3.001 || p.Output < 14.999 || p.Output > 15.001 {
		t.Fatalf("prices %+v", got)
	}
	if p, ok := got["free/model"]; !ok || p.Input != 0 || p.Output != 0 {
		t.Fatalf("free model %+v %v", p, ok)
	}
	if ModelPrices([]byte("not json")) != nil {
		t.Fatal("bad JSON gave prices")
	}
}

// A configured price wins over the gateway's; the gateway's fills in the
// rest; the copies of the catalog keep them.
func TestCatalogPrices(t *testing.T) {
	cat := NewCatalog([]Model{{Name: "a", Price: &Price{Input: 1, Output: 2}}})
	cat = cat.WithPrices(map[string]Price{"a": {Input: 9, Output: 9}, "b": {Input: 3, Output: 4}}).WithListed([]string{"a", "b"}).WithConfigPath("x")
	if p := cat.Price("a"); p == nil || p.Input != 1 {
		t.Fatalf("a %+v", p)
	}
	if p := cat.Price("b"); p == nil || p.Output != 4 {
		t.Fatalf("b %+v", p)
	}
	if p := cat.Price("c"); p != nil {
		t.Fatalf("c %+v", p)
	}
	if p := (*Catalog)(nil).Price("a"); p != nil {
		t.Fatalf("nil catalog %+v", p)
	}
}
