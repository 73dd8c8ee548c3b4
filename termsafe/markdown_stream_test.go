package termsafe

import (
	"math/rand/v2"
	"testing"
)

// markdownSplit feeds s to a MarkdownStream in pieces cut at the given
// offsets.
func markdownSplit(s string, cuts []int) string {
	var ms MarkdownStream
	return feedSplit(s, cuts, ms.Write, ms.Flush)
}

var markdownStreamSamples = []string{
	"",
	"plain **Markdown** & text\n",
	"clear &#27;[2J now",
	"hex &#x1b;[2J &#X1B;]0;t&#x07;",
	"no semicolon &#27[2J and at the end &#27",
	"leading zeros &#00027; wraps &#4294967323;",
	"harmless &#233; &#10; &amp; &#; & #27 &",
	"\x1b[31m&#x1b\r\n&#155;2J \u202e&#8297;",
	"&&#&#x&#27&",
}

func TestMarkdownStreamEverySplitEqualsOneShot(t *testing.T) {
	for _, s := range markdownStreamSamples {
		checkEverySplit(t, s, Markdown(s), markdownSplit)
	}
}

func TestMarkdownStreamRandomSplits(t *testing.T) {
	alphabet := []string{"a", " ", "\n", "\r", "&", "#", "x", "X", "1", "2", "7", "b", ";", "[", "\x1b", "é", "\xe2"}
	randomSplits(t, rand.New(rand.NewPCG(3, 4)), alphabet, 30, func(s string, cuts []int) {
		if got, want := markdownSplit(s, cuts), Markdown(s); got != want {
			t.Fatalf("%q cuts %v: got %q want %q", s, cuts, got, want)
		}
	})
}

func TestMarkdownStreamHoldsPartialReference(t *testing.T) {
	var ms MarkdownStream
	if got := ms.Write("before &#2"); got != "before " {
		t.Fatalf("Write = %q, want the text before the partial reference", got)
	}
	if got := ms.Write("7;[2J"); got != "␛[2J" {
		t.Fatalf("Write = %q, want the joined reference defused", got)
	}
	if got := ms.Write("tail &"); got != "tail " {
		t.Fatalf("Write = %q, want a trailing & held", got)
	}
	if got := ms.Flush(); got != "&" {
		t.Fatalf("Flush = %q, want the held &", got)
	}
	if got := ms.Flush(); got != "" {
		t.Fatalf("second Flush = %q, want nothing", got)
	}
}
