package termsafe

import (
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
)

func TestMarkdownDefusesCharacterReferences(t *testing.T) {
	tests := []struct{ in, want string }{
		{"clear &#27;[2J now", "clear ␛[2J now"},
		{"hex &#x1b;[2J &#X1B;]0;t&#x07;", "hex ␛[2J ␛]0;t␇"},
		{"no semicolon &#27[2J", "no semicolon ␛[2J"},
		{"leading zeros &#00027;", "leading zeros ␛"},
		{"wraps to 27: &#4294967323;", "wraps to 27: ␛"},
		{"CR &#13; and DEL &#127;", "CR ␍ and DEL ␡"},
		{"C1 that html keeps: &#129; &#x9d;", "C1 that html keeps: ⟨U+0081⟩ ⟨U+009D⟩"},
		{"bidi &#x202E;evil&#8297;", "bidi ⟨U+202E⟩evil⟨U+2069⟩"},
		{"harmless &#233; &#10; &#x263A; &#150; &amp; &#;", "harmless &#233; &#10; &#x263A; &#150; &amp; &#;"},
		{"named &Tab; &NewLine; &lrm; &rlm; &nbsp;", "named &Tab; &NewLine; &lrm; &rlm; &nbsp;"},
		{"&#27", "␛"},
		{"&#", "&#"},
		{"&#x", "&#x"},
		{"raw \x1b too", "raw ␛ too"},
	}
	for _, tc := range tests {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	clean := "no references here, just **Markdown** & text"
	if Markdown(clean) != clean {
		t.Fatal("clean Markdown changed")
	}
	if a := testing.AllocsPerRun(50, func() { _ = Markdown(clean) }); a != 0 {
		t.Fatalf("Markdown of clean text allocated %.0f times", a)
	}
}

// TestMarkdownThroughGlamour renders attack Markdown with a real glamour
// renderer: without Markdown the raw ESC comes back (the reason Markdown
// exists); with Markdown and KeepSGR nothing but SGR survives.
func TestMarkdownThroughGlamour(t *testing.T) {
	var zero uint
	r, err := glamour.NewTermRenderer(
		glamour.WithStyles(ansi.StyleConfig{Document: ansi.StyleBlock{Margin: &zero}}),
		glamour.WithWordWrap(60))
	if err != nil {
		t.Fatal(err)
	}
	attacks := []string{
		"text &#27;[2J &#x1b;]0;title&#7; end",
		"`&#27;[2J` in code",
		"~~&#27;]52;c;aGk=&#7;~~",
		"<b>&#27;P1$r&#27;\\</b>",
		"| h |\n|---|\n| &#27;[H |\n",
		"[&#27;[2J](https://example.com/&#27;x) and <https://a.example/&#27;>",
		"![&#x9b;2J](x.png)",
		"escaped \\&#27;[2J",
		"wrap &#4294967323;c",
		"> quote &#x202E;evil",
	}
	for i, md := range attacks {
		raw, err := r.Render(md)
		if err != nil {
			t.Fatal(err)
		}
		safe, err := r.Render(Markdown(md))
		if err != nil {
			t.Fatal(err)
		}
		if v := violation(KeepSGR(safe), true); v != "" {
			t.Errorf("%q: after Markdown+KeepSGR: %s", md, v)
		}
		// Markdown alone must already keep glamour from producing anything
		// but its own SGR and OSC 8 sequences.
		if v := violation(stripOSC8(safe), true); v != "" {
			t.Errorf("%q: glamour output after Markdown: %s\n%q", md, v, safe)
		}
		if i == 0 && !strings.Contains(raw, "\x1b[2J") {
			t.Errorf("%q: expected glamour to decode the reference (test premise)", md)
		}
	}
}

// stripOSC8 removes glamour's hyperlink sequences, which are the only
// non-SGR sequences it emits itself.
func stripOSC8(s string) string {
	for {
		i := strings.Index(s, "\x1b]8;")
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], '\a')
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+j+1:]
	}
}
