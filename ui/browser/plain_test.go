package browser

import "testing"

func TestPlainPreview(t *testing.T) {
	cases := []struct{ md, want string }{
		{"plain text", "plain text"},
		{"# Heading\n\nSome **bold** and _em_ text.", "Heading Some bold and em text."},
		{"> quoted\n> more", "quoted more"},
		{"- one\n* two\n+ three\n1. four\n2) five", "one two three four five"},
		{"```go\nfmt.Println(x)\n```", "fmt.Println(x)"},
		{"# Airships - rigid - big ```go x := 1 ```", "Airships rigid big x := 1"}, // as the store gives it: one line
		{"see [the docs](https://example.com) and ![alt](x.png)", "see the docs and alt"},
		{"`code` and ~~gone~~", "code and gone"},
		{"snake_case_name stays", "snake_case_name stays"},
		{"#hashtag stays", "#hashtag stays"},
		{"| a | b |\n|---|---|\n| 1 | 2 |", "a b 1 2"},
		{"a\tb\x1b[31m red \u202e", "a b␛[31m red ⟨U+202E⟩"},
		{"3. steps and 3.5 stays", "steps and 3.5 stays"},
		{"[unclosed link", "[unclosed link"},
		{"", ""},
	}
	for _, c := range cases {
		if got := plainPreview(c.md); got != c.want {
			t.Errorf("plainPreview(%q) = %q, want %q", c.md, got, c.want)
		}
	}
}
