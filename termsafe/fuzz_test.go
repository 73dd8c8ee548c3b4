package termsafe

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
)

// cutsFrom turns fuzzer bytes into increasing cut offsets within s.
func cutsFrom(s string, raw []byte) []int {
	var cuts []int
	p := 0
	for _, b := range raw {
		p += int(b % 8)
		if p > len(s) {
			break
		}
		cuts = append(cuts, p)
	}
	return cuts
}

func FuzzSanitize(f *testing.F) {
	for _, s := range streamSamples {
		f.Add(s, []byte{1, 2, 3})
	}
	f.Add("\x1b]8;;http://x\x07y\x1b]8;;\x07", []byte{0, 1, 0, 7, 7})
	f.Fuzz(func(t *testing.T, s string, rawCuts []byte) {
		out := Sanitize(s)
		if v := violation(out, false); v != "" {
			t.Fatalf("Sanitize(%q) = %q: %s", s, out, v)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("not idempotent on %q", s)
		}
		if IsClean(s) != (out == s) {
			t.Fatalf("IsClean(%q) = %v but Sanitize changed=%v", s, IsClean(s), out != s)
		}
		cuts := cutsFrom(s, rawCuts)
		if got := streamSplit(s, cuts); got != out {
			t.Fatalf("stream of %q cut at %v = %q, one-shot %q", s, cuts, got, out)
		}
		if md := Markdown(s); violation(md, false) != "" {
			t.Fatalf("Markdown(%q) = %q: %s", s, md, violation(md, false))
		}
	})
}

func FuzzKeepSGR(f *testing.F) {
	f.Add("\x1b[1mb\x1b[m\x1b]8;;u\x07l\x1b]8;;\x07")
	f.Add("\x1b]0;t\x1b\\\x1bPq\x1b\\\x1b[2J\x1bc\x1b(B")
	f.Add("\x1b]0;unterminated")
	f.Add("\x1b[12")
	f.Add("a\rb\u009b\xff\u202e")
	f.Fuzz(func(t *testing.T, s string) {
		out := KeepSGR(s)
		if v := violation(out, true); v != "" {
			t.Fatalf("KeepSGR(%q) = %q: %s", s, out, v)
		}
		if again := KeepSGR(out); again != out {
			t.Fatalf("not idempotent on %q: %q -> %q", s, out, again)
		}
		if !strings.ContainsRune(s, 0x1b) && out != Sanitize(s) {
			t.Fatalf("without ESC KeepSGR must equal Sanitize: %q vs %q", out, Sanitize(s))
		}
	})
}

// FuzzMarkdownGlamour checks the whole pipeline the transcript uses:
// whatever the Markdown, glamour's output after Markdown contains nothing
// but glamour's own SGR and OSC 8, and KeepSGR leaves only SGR.
func FuzzMarkdownGlamour(f *testing.F) {
	var zero uint
	r, err := glamour.NewTermRenderer(
		glamour.WithStyles(ansi.StyleConfig{Document: ansi.StyleBlock{Margin: &zero}}),
		glamour.WithWordWrap(40))
	if err != nil {
		f.Fatal(err)
	}
	var mu sync.Mutex // a glamour renderer is not safe for concurrent use
	f.Add("# t\n\ntext &#27;[2J `&#x1b;` [l](http://x) <b>&#7;</b>\n")
	f.Add("| a |\n|---|\n| &#27;]0;x&#7; |\n\n> &#x202e;q\n\n```\n&#27;\n```\n")
	f.Add("- &#4294967323;c\n- &#129;\n")
	f.Fuzz(func(t *testing.T, md string) {
		if len(md) > 4096 {
			return
		}
		mu.Lock()
		out, err := r.Render(Markdown(md))
		mu.Unlock()
		if err != nil {
			return // a renderer error is not a safety issue
		}
		if v := violation(stripOSC8(out), true); v != "" {
			t.Fatalf("glamour(Markdown(%q)) = %q: %s", md, out, v)
		}
		if v := violation(KeepSGR(out), true); v != "" {
			t.Fatalf("KeepSGR(glamour(Markdown(%q))): %s", md, v)
		}
	})
}
