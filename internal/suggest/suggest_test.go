package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"vision", "vision", 0},
		{"visoin", "vision", 2},     // a swap is two edits
		{"acent", "accent", 1},      // a missing letter
		{"base-url", "base_url", 1}, // a substitution
		{"kitten", "sitting", 3},
		{"café", "cafe", 1}, // runes, not bytes
		{"日本", "日本語", 1},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"default_model", "image_model", "image_dir", "theme", "mouse"}
	cases := []struct {
		word, want string
	}{
		{"defualt_model", "default_model"},
		{"image_modle", "image_model"},
		{"theme", "theme"},
		{"them", "theme"},
		{"mouse_wheel", ""}, // too far from everything
		{"colour", ""},
		{"", ""}, // every candidate is more than two edits from nothing
	}
	for _, c := range cases {
		if got := Closest(c.word, keys); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	// A tie goes to the earlier candidate.
	if got := Closest("ab", []string{"ax", "ay"}); got != "ax" {
		t.Errorf("tie: Closest = %q, want the first candidate %q", got, "ax")
	}
	if got := Closest("ab", []string{"ay", "ax"}); got != "ay" {
		t.Errorf("tie: Closest = %q, want the first candidate %q", got, "ay")
	}
	if got := Closest("x", nil); got != "" {
		t.Errorf("no candidates: Closest = %q, want \"\"", got)
	}
}

// Nearest orders the candidates by how near they are, ties in their
// order, and gives at most n.
func TestNearest(t *testing.T) {
	themes := []string{"auto", "dark", "light", "high-contrast", "nord", "gruvbox", "solarized-light"}
	if got := strings.Join(Nearest("nope", themes, 3), ","); got != "nord,auto,dark" {
		t.Errorf("Nearest(nope) = %s", got)
	}
	if got := Nearest("x", themes, 0); len(got) != 0 {
		t.Errorf("n=0 gave %v", got)
	}
	if got := Nearest("x", themes[:2], 5); len(got) != 2 {
		t.Errorf("n past the candidates gave %v", got)
	}
}
