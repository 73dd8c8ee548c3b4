package slash

import (
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"a b  c", []string{"a", "b", "c"}},
		{"a\tb\nc", []string{"a", "b", "c"}},
		{`"a red fox" --n 2`, []string{"a red fox", "--n", "2"}},
		{`'single "quoted"' x`, []string{`single "quoted"`, "x"}},
		{`"say \"hi\"" ok`, []string{`say "hi"`, "ok"}},
		{`a cat's hat`, []string{"a", "cat's", "hat"}}, // an apostrophe inside a word is text
		{`it"s fine"`, []string{`it"s`, `fine"`}},      // so is a quote inside a word
		{`"unclosed quote runs on`, []string{"unclosed quote runs on"}},
		{`My\ Pictures/shot.png b`, []string{"My Pictures/shot.png", "b"}},
		{`C:\Users\ada\x.png`, []string{`C:\Users\ada\x.png`}}, // a Windows path keeps its backslashes
		{`a\\ b`, []string{`a\`, "b"}},
		{`--mask="my mask.png" --n=2`, []string{"--mask=my mask.png", "--n=2"}},
		{`""`, []string{""}},
		{`"a"b`, []string{"ab"}},
		{"日本 語", []string{"日本", "語"}},
	}
	for _, c := range cases {
		if got := texts(splitWords(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitWordsOffsets(t *testing.T) {
	s := `one "two three" fo\ ur`
	ws := splitWords(s)
	want := []string{"one", `"two three"`, `fo\ ur`}
	if len(ws) != len(want) {
		t.Fatalf("got %d words", len(ws))
	}
	for i, w := range ws {
		if got := s[w.start:w.end]; got != want[i] {
			t.Errorf("word %d spans %q, want %q", i, got, want[i])
		}
	}
	if ws := splitWords(`x "open`); ws[1].open != '"' {
		t.Errorf("an unclosed quote is not marked open: %+v", ws[1])
	}
}

// TestQuoteArgRoundTrip: whatever a candidate's value is, the word the
// list writes into the composer reads back as exactly that value, alone or
// followed by more text.
func TestQuoteArgRoundTrip(t *testing.T) {
	for _, v := range []string{
		"plain", "two words", "My Pictures/", `"quoted"`, `'single`, `cat's`,
		`C:\dir\`, `a\b`, `a\\b`, `back\ slash`, `end\`, "tab\there", `mid"quote`, "日本 語",
	} {
		q := quoteArg(v)
		if got := texts(splitWords(q)); len(got) != 1 || got[0] != v {
			t.Errorf("quoteArg(%q) = %q reads back as %q", v, q, got)
		}
		if got := texts(splitWords(q + " next")); len(got) != 2 || got[0] != v || got[1] != "next" {
			t.Errorf("quoteArg(%q) + \" next\" reads back as %q", v, got)
		}
	}
	if got := quoteArg(""); got != `""` {
		t.Errorf(`quoteArg("") = %q`, got)
	}
	if got := quoteArg("My Pictures/"); got != `My\ Pictures/` {
		t.Errorf("a directory with a space is written %q", got)
	}
	// A completed directory stays open for its file name.
	if got := texts(splitWords(quoteArg("My Pictures/") + "shot.png")); len(got) != 1 || got[0] != "My Pictures/shot.png" {
		t.Errorf("typing after a completed directory gives %q", got)
	}
}
