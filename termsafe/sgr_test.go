package termsafe

import (
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
)

func TestKeepSGR(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello\nworld", "hello\nworld"},
		{"SGR kept", "\x1b[1;38;5;212mhi\x1b[m \x1b[38:2::1:2:3mx\x1b[0m", "\x1b[1;38;5;212mhi\x1b[m \x1b[38:2::1:2:3mx\x1b[0m"},
		{"OSC 8 removed, text kept", "\x1b]8;id=1;https://x.example\x07link\x1b]8;;\x07", "link"},
		{"OSC with ST", "a\x1b]0;title\x1b\\b", "ab"},
		{"OSC with C1 ST", "a\x1b]0;title\u009cb", "ab"},
		{"OSC cancelled by ESC", "a\x1b]0;tit\x1b[1mb", "a\x1b[1mb"},
		{"unterminated OSC", "a\x1b]0;title", "a␛]0;title"},
		{"CSI other than SGR", "\x1b[2J\x1b[H\x1b[?25l\x1b[6n", ""},
		{"private SGR-like", "\x1b[>4;2m\x1b[?1m", ""},
		{"SGR with intermediate", "\x1b[1 m", ""},
		{"DCS APC PM SOS", "\x1bPq\x1b\\\x1b_G\x1b\\\x1b^p\x07\x1bXs\x1b\\x", "x"},
		{"two-byte escapes", "\x1bc\x1b7\x1b8\x1b=", ""},
		{"nF escape", "\x1b(B\x1b#8", ""},
		{"incomplete CSI", "a\x1b[12", "a␛[12"},
		{"lone ESC", "a\x1b", "a␛"},
		{"ESC then control", "\x1b\x07", "␛␇"},
		{"other controls sanitised", "a\rb\r\nc\x00\u009b\u202e\xff", "a␍b\nc␀⟨U+009B⟩⟨U+202E⟩\ufffd"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := KeepSGR(tc.in)
			if got != tc.want {
				t.Fatalf("KeepSGR(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if v := violation(got, true); v != "" {
				t.Fatalf("%q: %s", got, v)
			}
		})
	}
}

func TestKeepSGRGlamourLinks(t *testing.T) {
	var zero uint
	r, err := glamour.NewTermRenderer(
		glamour.WithStyles(ansi.StyleConfig{Document: ansi.StyleBlock{Margin: &zero}}),
		glamour.WithWordWrap(80))
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render("See [the docs](https://docs.example/x) and <https://auto.example/>.\n\n| a |\n|---|\n| [t](https://t.example/) |\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "\x1b]8;") {
		t.Fatal("premise: glamour v2 emits OSC 8 hyperlinks")
	}
	safe := KeepSGR(out)
	if strings.Contains(safe, "\x1b]") {
		t.Fatalf("OSC left: %q", safe)
	}
	for _, want := range []string{"the docs", "https://docs.example/x", "https://auto.example/", "https://t.example/"} {
		if !strings.Contains(safe, want) {
			t.Errorf("%q missing from %q", want, safe)
		}
	}
}

func TestKeepSGRCleanNotCopied(t *testing.T) {
	in := strings.Repeat("\x1b[38;5;252mword\x1b[m \x1b[1mbold\x1b[0m\n", 50)
	if a := testing.AllocsPerRun(50, func() {
		if KeepSGR(in) != in {
			t.Fatal("changed")
		}
	}); a != 0 {
		t.Fatalf("allocated %.0f times", a)
	}
}
