package ui

import "testing"

func TestPlainWords(t *testing.T) {
	for in, want := range map[string]string{
		"# Brewing a good cup of tea\n\nTea rewards a little **care**.": "Brewing a good cup of tea Tea rewards a little care.",
		"You asked: *tea please*\n\n> quoted _word_, and more":          "You asked: tea please quoted word, and more",
		"- one\n- two\n1. three\n```go\nx := a_b * 2\n```":              "one two three x := a_b * 2",
		"Use `go test` then ~~not~~ this":                               "Use go test then not this",
	} {
		if got := plainWords(in); got != want {
			t.Errorf("plainWords(%q) = %q, want %q", in, got, want)
		}
	}
}
