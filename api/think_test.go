package api

import (
	"strings"
	"testing"
)

// splitAll feeds pieces to a fresh splitter and returns what it gave out.
func splitAll(pieces ...string) (reasoning, answer string) {
	var t thinkSplitter
	for _, p := range pieces {
		r, a := t.write(p)
		reasoning += r
		answer += a
	}
	r, a := t.flush()
	return reasoning + r, answer + a
}

// thinkCorpus holds replies with what they must give: the reasoning and
// the answer.
func thinkCorpus() []struct{ in, reasoning, answer string } {
	return []struct{ in, reasoning, answer string }{
		{"<think>Let me add 2 and 2.</think>\n\nIt is 4.", "Let me add 2 and 2.", "It is 4."},
		{"\n  <think>\nstep one\nstep two\n</think>\n\nDone.", "step one\nstep two", "Done."},
		{"<think></think>Answer", "", "Answer"},
		{"<think>\n\n</think>\n\nQwen without thinking", "", "Qwen without thinking"},
		{"<think>never closed because the reply was cut", "never closed because the reply was cut", ""},
		{"<think>ends on a partial tag </thi", "ends on a partial tag </thi", ""},
		{"Plain answer with <think>in the middle</think>.", "", "Plain answer with <think>in the middle</think>."},
		{"  leading space kept in a plain answer", "", "  leading space kept in a plain answer"},
		{"<thinking>is not the tag</thinking>", "", "<thinking>is not the tag</thinking>"},
		{"<thi", "", "<thi"},
		{"<", "", "<"},
		{"   ", "", "   "},
		{"", "", ""},
		{"<think>a < b and </ c </think>x</think>", "a < b and </ c", "x</think>"},
		{"<think>über 💭 denken</think>Antwort: ✓", "über 💭 denken", "Antwort: ✓"},
		{"<think>one\n\ntwo  \n</think>answer\n\nwith <think> later", "one\n\ntwo", "answer\n\nwith <think> later"},
		{"<<think>", "", "<<think>"},
		{"\r\n<think>x</think>\r\n\r\ny", "x", "y"},
	}
}

func TestThinkSplitterCorpus(t *testing.T) {
	for _, c := range thinkCorpus() {
		r, a := splitAll(c.in)
		if r != c.reasoning || a != c.answer {
			t.Errorf("%q: reasoning %q answer %q; want %q and %q", c.in, r, a, c.reasoning, c.answer)
		}
	}
}

// Every cut of every input into two and three pieces, at any byte, gives
// the same reasoning and answer as the whole.
func TestThinkSplitterEveryCut(t *testing.T) {
	for _, c := range thinkCorpus() {
		n := len(c.in)
		for i := 0; i <= n; i++ {
			if r, a := splitAll(c.in[:i], c.in[i:]); r != c.reasoning || a != c.answer {
				t.Fatalf("%q cut at %d: reasoning %q answer %q", c.in, i, r, a)
			}
			for j := i; j <= n; j++ {
				if r, a := splitAll(c.in[:i], c.in[i:j], c.in[j:]); r != c.reasoning || a != c.answer {
					t.Fatalf("%q cut at %d and %d: reasoning %q answer %q", c.in, i, j, r, a)
				}
			}
		}
		// One byte at a time.
		pieces := make([]string, n)
		for i := range n {
			pieces[i] = c.in[i : i+1]
		}
		if r, a := splitAll(pieces...); r != c.reasoning || a != c.answer {
			t.Fatalf("%q byte by byte: reasoning %q answer %q", c.in, r, a)
		}
	}
}

// FuzzThinkSplitter: any input cut anywhere gives what the whole gives,
// and nothing is lost but white space and the two tags.
func FuzzThinkSplitter(f *testing.F) {
	for _, c := range thinkCorpus() {
		f.Add(c.in, uint16(3), uint16(11))
	}
	f.Fuzz(func(t *testing.T, in string, cut1, cut2 uint16) {
		i, j := int(cut1)%(len(in)+1), int(cut2)%(len(in)+1)
		if i > j {
			i, j = j, i
		}
		r0, a0 := splitAll(in)
		if r, a := splitAll(in[:i], in[i:j], in[j:]); r != r0 || a != a0 {
			t.Fatalf("%q cut at %d, %d: (%q, %q), whole (%q, %q)", in, i, j, r, a, r0, a0)
		}
		if r0 == "" && a0 != in && !isThinkOnly(in) {
			t.Fatalf("%q: no reasoning, yet the answer %q is not the input", in, a0)
		}
		if len(r0)+len(a0) > len(in) {
			t.Fatalf("%q: more came out than went in", in)
		}
	})
}

// isThinkOnly reports input that opens with <think> (after white space),
// whose tags and white space may be dropped even when the reasoning is
// empty.
func isThinkOnly(in string) bool {
	for i := 0; i < len(in); i++ {
		switch in[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return len(in)-i >= len(thinkOpen) && in[i:i+len(thinkOpen)] == thinkOpen
	}
	return false
}

// TestThinkSplitterHoldsLittle: white space streamed a byte at a time,
// before a <think> or inside one, is not held without bound: each delta
// costs at most maxThinkHeld, and the text comes out whole.
func TestThinkSplitterHoldsLittle(t *testing.T) {
	spaces := strings.Repeat(" ", 200_000)
	for _, in := range []string{spaces + "answer", "<think>a" + spaces + "b</think>c"} {
		var s thinkSplitter
		var r, a strings.Builder
		for i := 0; i < len(in); i++ {
			rr, aa := s.write(in[i : i+1])
			r.WriteString(rr)
			a.WriteString(aa)
			if len(s.held) > maxThinkHeld+1 {
				t.Fatalf("%d bytes held after %d", len(s.held), i)
			}
		}
		rr, aa := s.flush()
		r.WriteString(rr)
		a.WriteString(aa)
		if r.Len()+a.Len() != len(in)-strings.Count(in, "<think>")*len(thinkOpen)-strings.Count(in, "</think>")*len(thinkClose) {
			t.Fatalf("%d + %d bytes out of %d", r.Len(), a.Len(), len(in))
		}
	}
}

// BenchmarkThinkSplitter measures the splitter per delta: an answer
// without tags (it passes through), reasoning in <think> tags, and white
// space a byte at a time (the worst case the bound is for).
func BenchmarkThinkSplitter(b *testing.B) {
	word := "token "
	cases := []struct {
		name   string
		deltas []string
	}{
		{"answer", repeatDeltas(word, 4096)},
		{"think", append(append([]string{"<think>"}, repeatDeltas(word, 4094)...), "</think>")},
		{"spaces_bytewise", repeatDeltas(" ", 4096)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var bytes int
			for _, d := range c.deltas {
				bytes += len(d)
			}
			b.SetBytes(int64(bytes))
			for range b.N {
				var s thinkSplitter
				for _, d := range c.deltas {
					s.write(d)
				}
				s.flush()
			}
		})
	}
}

func repeatDeltas(d string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = d
	}
	return out
}
