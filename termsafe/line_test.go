package termsafe

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	cases := map[string]string{
		"gpt-4o":                   "gpt-4o",
		"gpt-4o\nfake  row":        `gpt-4o\nfake  row`,
		"a\tb":                     `a\tb`,
		"crlf\r\nend":              `crlf\nend`,
		"cr\rend":                  "cr␍end",
		"esc\x1b[2Jx\n":            `esc␛[2Jx\n`,
		"bidi\u202etxt":            "bidi⟨U+202E⟩txt",
		"":                         "",
		"already \\n escaped":      "already \\n escaped",
		"\x9bbyte":                 "⟨0x9B⟩byte",
		"multi\n\nlines\n\t\tdeep": `multi\n\nlines\n\t\tdeep`,
	}
	for in, want := range cases {
		got := Line(in)
		if got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Errorf("Line(%q) = %q keeps a control character %U", in, got, r)
			}
		}
		if Line(got) != got {
			t.Errorf("Line is not idempotent on %q", got)
		}
	}
	clean := "plain model id"
	if got := Line(clean); got != clean || strings.Contains(got, `\`) {
		t.Errorf("clean input changed: %q", got)
	}
}
