package termsafe

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// feedSplit feeds s to write in pieces cut at the given offsets, then
// calls flush, and returns everything they returned.
func feedSplit(s string, cuts []int, write func(string) string, flush func() string) string {
	var out strings.Builder
	prev := 0
	for _, c := range cuts {
		out.WriteString(write(s[prev:c]))
		prev = c
	}
	out.WriteString(write(s[prev:]))
	out.WriteString(flush())
	return out.String()
}

// streamSplit feeds s to a Stream in pieces cut at the given offsets.
func streamSplit(s string, cuts []int) string {
	var st Stream
	return feedSplit(s, cuts, st.Write, st.Flush)
}

// checkEverySplit fails unless split gives want(s) for every single cut,
// every pair of cuts and one byte at a time.
func checkEverySplit(t *testing.T, s string, want string, split func(string, []int) string) {
	t.Helper()
	for i := 0; i <= len(s); i++ {
		for j := i; j <= len(s); j++ {
			if got := split(s, []int{i, j}); got != want {
				t.Fatalf("%q cut at %d,%d: got %q want %q", s, i, j, got, want)
			}
		}
	}
	cuts := make([]int, 0, len(s))
	for i := 1; i < len(s); i++ {
		cuts = append(cuts, i)
	}
	if got := split(s, cuts); got != want {
		t.Fatalf("%q byte by byte: got %q want %q", s, got, want)
	}
}

var streamSamples = []string{
	"",
	"plain text\n",
	"a\r\nb\r\n\r\n",
	"\r\r\n\r",
	"x\x1b]52;c;aGk=\x07y\x1b[2J",
	"€ and 🎉 and 世界",
	"\u009b2J\u202e\u2066",
	"bad \xe2\x82 bytes \x9b\xff",
	"\xf0\x9f\x8e",
	"\xe2\r\n\x80",
	"tail CR\r",
	"mixed\x1bP1$r\x1b\\ \u00e9\u0301\x7f",
}

func TestStreamEverySplitEqualsOneShot(t *testing.T) {
	for _, s := range streamSamples {
		checkEverySplit(t, s, Sanitize(s), streamSplit)
	}
}

func TestStreamRandomSplits(t *testing.T) {
	alphabet := []string{"a", "b", " ", "\n", "\r", "\t", "\x1b", "[", "]", "\x07", "\\", "\x00", "\x7f",
		"é", "€", "🎉", "\u009b", "\u202e", "\u2069", "\u200f", "\xe2", "\x82", "\x9b", "\xff", "\xf0\x9f"}
	randomSplits(t, rand.New(rand.NewPCG(1, 2)), alphabet, 40, func(s string, cuts []int) {
		want := Sanitize(s)
		if got := streamSplit(s, cuts); got != want {
			t.Fatalf("%q cuts %v: got %q want %q", s, cuts, got, want)
		}
		if v := violation(want, false); v != "" {
			t.Fatalf("Sanitize(%q) = %q: %s", s, want, v)
		}
	})
}

// randomSplits calls check with 2000 random strings of up to maxLen pieces
// of alphabet, each with random cuts 1 to 5 bytes apart.
func randomSplits(t *testing.T, rng *rand.Rand, alphabet []string, maxLen int, check func(s string, cuts []int)) {
	t.Helper()
	for n := 0; n < 2000; n++ {
		var b strings.Builder
		for k := rng.IntN(maxLen); k > 0; k-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		var cuts []int
		for p := 0; p < len(s); p += 1 + rng.IntN(5) {
			cuts = append(cuts, p)
		}
		check(s, cuts)
	}
}

func TestStreamSplitSequenceIsCaught(t *testing.T) {
	var st Stream
	got := st.Write("before \x1b") + st.Write("]0;title\x07 after")
	got += st.Write("\x1b[") + st.Write("2J") + st.Flush()
	if want := "before ␛]0;title␇ after␛[2J"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestStreamHoldsCRAndPartialRunes(t *testing.T) {
	var st Stream
	if got := st.Write("line\r"); got != "line" || !st.Pending() {
		t.Fatalf("CR at end of delta: got %q pending=%v", got, st.Pending())
	}
	if got := st.Write("\nnext"); got != "\nnext" {
		t.Fatalf("CRLF across deltas: got %q", got)
	}
	if got := st.Write("\xe2\x82"); got != "" {
		t.Fatalf("partial euro sign: got %q", got)
	}
	if got := st.Write("\xac!"); got != "€!" {
		t.Fatalf("completed euro sign: got %q", got)
	}
	if got := st.Write("\r"); got != "" {
		t.Fatalf("lone CR held: got %q", got)
	}
	if got := st.Flush(); got != "␍" {
		t.Fatalf("Flush of lone CR: got %q", got)
	}
	if st.Pending() || st.Flush() != "" {
		t.Fatal("Flush did not reset the stream")
	}
}

func TestStreamCleanDeltaNotCopied(t *testing.T) {
	var st Stream
	delta := "a clean delta of answer text, nothing to see here "
	allocs := testing.AllocsPerRun(100, func() {
		if st.Write(delta) != delta {
			t.Fatal("clean delta changed")
		}
	})
	if allocs != 0 {
		t.Fatalf("Write of a clean delta allocated %.0f times", allocs)
	}
}
