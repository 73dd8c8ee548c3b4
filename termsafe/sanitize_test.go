package termsafe

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"charm.land/lipgloss/v2"
)

// violation returns a description of the first character in s that the
// sanitiser's output must never contain, or "" if there is none. sgrOK
// allows complete SGR sequences (for KeepSGR).
func violation(s string, sgrOK bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b && sgrOK:
			n, keep := escSequence(s[i:])
			if n == 0 || !keep {
				return fmt.Sprintf("non-SGR escape at %d: %q", i, s[i:min(len(s), i+12)])
			}
			i += n
			continue
		case r == '\n' || r == '\t':
		case r < 0x20:
			return fmt.Sprintf("C0 control %#x at %d", r, i)
		case r == 0x7f:
			return fmt.Sprintf("DEL at %d", i)
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("C1 control U+%04X at %d", r, i)
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return fmt.Sprintf("bidi control U+%04X at %d", r, i)
		}
		i += size
	}
	return ""
}

func TestSanitizeClasses(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello, world", "hello, world"},
		{"newline and tab kept", "a\tb\nc", "a\tb\nc"},
		{"unicode kept", "grüße 世界 🎉 e\u0301", "grüße 世界 🎉 e\u0301"},
		{"CRLF normalised", "a\r\nb\r\n", "a\nb\n"},
		{"lone CR", "100%\rdone", "100%␍done"},
		{"CR CR LF", "a\r\r\nb", "a␍\nb"},
		{"CR at end", "a\r", "a␍"},
		{"NUL", "a\x00b", "a␀b"},
		{"BEL", "ding\x07", "ding␇"},
		{"backspace", "abc\x08\x08x", "abc␈␈x"},
		{"vertical tab and form feed", "a\vb\fc", "a␋b␌c"},
		{"unit separator", "\x1f", "␟"},
		{"DEL", "a\x7fb", "a␡b"},
		{"ESC alone", "\x1b", "␛"},
		{"clear screen", "\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"cursor moves", "\x1b[10;5H\x1b[3A\x1b7\x1b8", "␛[10;5H␛[3A␛7␛8"},
		{"SGR colour is inert too", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"window title BEL", "\x1b]0;pwned\x07", "␛]0;pwned␇"},
		{"window title ST", "\x1b]2;pwned\x1b\\", "␛]2;pwned␛\\"},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "␛]8;;https://evil.example␇click␛]8;;␇"},
		{"OSC 7 cwd", "\x1b]7;file:///etc\x07", "␛]7;file:///etc␇"},
		{"DCS", "\x1bPq#0;2;0;0;0\x1b\\", "␛Pq#0;2;0;0;0␛\\"},
		{"APC PM SOS", "\x1b_G\x1b\\\x1b^x\x1b\\\x1bXy\x1b\\", "␛_G␛\\␛^x␛\\␛Xy␛\\"},
		{"reset terminal", "\x1bc", "␛c"},
		{"device status query", "\x1b[6n\x1b[c\x1b[>q", "␛[6n␛[c␛[>q"},
		{"C1 CSI as UTF-8", "\u009b2J", "⟨U+009B⟩2J"},
		{"C1 OSC and ST as UTF-8", "\u009d0;t\u009c", "⟨U+009D⟩0;t⟨U+009C⟩"},
		{"C1 range ends", "\u0080\u009f", "⟨U+0080⟩⟨U+009F⟩"},
		{"NBSP is not C1", "a\u00a0b", "a\u00a0b"},
		{"raw C1 byte", "a\x9b2Jb", "a⟨0x9B⟩2Jb"},
		{"raw 0x80 byte", "\x80", "⟨0x80⟩"},
		{"other invalid byte", "caf\xe9!", "caf\ufffd!"},
		{"truncated rune at end", "a\xe2\x82", "a\ufffd⟨0x82⟩"},
		{"truncated rune before ASCII", "\xe2\xa2A", "\ufffd\ufffdA"},
		{"overlong encoding", "\xc0\xaf", "\ufffd\ufffd"},
		{"real U+FFFD kept", "\ufffd", "\ufffd"},
		{"bidi RLO", "abc\u202edcba", "abc⟨U+202E⟩dcba"},
		{"bidi embeddings", "\u202a\u202b\u202c\u202d", "⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩"},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", "⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩"},
		{"bidi marks kept", "\u200e\u200f\u061c", "\u200e\u200f\u061c"},
		{"ZWJ emoji kept", "👩\u200d💻", "👩\u200d💻"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Sanitize(tc.in)
			if got != tc.want {
				t.Fatalf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if v := violation(got, false); v != "" {
				t.Fatalf("output %q: %s", got, v)
			}
			if again := Sanitize(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
			if IsClean(tc.in) != (tc.in == tc.want) {
				t.Fatalf("IsClean(%q) = %v", tc.in, IsClean(tc.in))
			}
		})
	}
}

func TestSanitizeEveryControlByte(t *testing.T) {
	for c := 0; c < 0x80; c++ {
		in := "x" + string(rune(c)) + "y"
		got := Sanitize(in)
		switch {
		case c == '\t' || c == '\n' || (c >= 0x20 && c < 0x7f):
			if got != in {
				t.Errorf("byte %#x changed: %q", c, got)
			}
		default:
			if got == in || violation(got, false) != "" {
				t.Errorf("byte %#x not neutralised: %q", c, got)
			}
			if utf8.RuneCountInString(got) != 3 {
				t.Errorf("byte %#x: want one placeholder rune, got %q", c, got)
			}
		}
	}
	for r := rune(0x80); r <= 0x9f; r++ {
		got := Sanitize(string(r))
		if want := fmt.Sprintf("⟨U+%04X⟩", r); got != want {
			t.Errorf("U+%04X: got %q want %q", r, got, want)
		}
		raw := Sanitize(string([]byte{byte(r)}))
		if want := fmt.Sprintf("⟨0x%02X⟩", r); raw != want {
			t.Errorf("raw %#x: got %q want %q", r, raw, want)
		}
	}
}

// TestWordAtATimeScan puts every byte at every position of a 24-byte
// ASCII string, so the eight-bytes-at-a-time path sees it in each lane.
func TestWordAtATimeScan(t *testing.T) {
	base := []byte("abcdefgh\tijklmno\npqrstuv")
	for c := 0; c < 256; c++ {
		for p := range base {
			b := append([]byte(nil), base...)
			b[p] = byte(c)
			s := string(b)
			bad := c < 0x20 && c != '\t' && c != '\n' || c >= 0x7f
			if IsClean(s) == bad {
				t.Fatalf("byte %#x at %d: IsClean = %v", c, p, IsClean(s))
			}
			if v := violation(Sanitize(s), false); v != "" {
				t.Fatalf("byte %#x at %d: %s", c, p, v)
			}
		}
	}
}

func TestSanitizeCleanInputIsNotCopied(t *testing.T) {
	in := strings.Repeat("The quick brown fox – 狐狸 – jumps.\n\t", 100)
	allocs := testing.AllocsPerRun(100, func() {
		if out := Sanitize(in); out != in {
			t.Fatal("clean input changed")
		}
	})
	if allocs != 0 {
		t.Fatalf("Sanitize of clean input allocated %.0f times", allocs)
	}
	out := Sanitize(in)
	if unsafeData(out) != unsafeData(in) {
		t.Fatal("clean input was copied instead of returned")
	}
}

func TestPlaceholdersAreOneCellWide(t *testing.T) {
	// A placeholder must not disturb layout: control pictures are one cell,
	// bracketed forms are as wide as they look.
	for _, s := range []string{"␛", "␇", "␍", "␡", "␀"} {
		if w := lipgloss.Width(s); w != 1 {
			t.Errorf("width of %q = %d, want 1", s, w)
		}
	}
	if w := lipgloss.Width(Sanitize("\u202e")); w != len("<U+202E>") {
		t.Errorf("width of bidi placeholder = %d", w)
	}
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }
