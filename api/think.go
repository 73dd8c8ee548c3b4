package api

import "strings"

// Reasoning models served by Ollama, llama.cpp without a reasoning parser,
// and many OpenAI-compatible servers (Qwen, DeepSeek R1 distills) send
// their reasoning inside the content, as <think>...</think> at the very
// start of the reply. thinkSplitter takes the content deltas as they come
// and tells the reasoning from the answer:
//
//   - only a <think> at the start counts, after leading white space at
//     most; one later in the reply is text like any other;
//   - the tags may be cut anywhere between deltas ("<th" + "ink>"), so
//     what could still become a tag is held back until the next delta
//     (or the end) decides;
//   - a reply that ends inside <think> (cut off, or a model that never
//     closes it) leaves all of it as reasoning;
//   - white space at the edges of the reasoning and before the answer is
//     dropped: models put blank lines around both.
//
// However the content is cut into deltas, the reasoning and the answer
// come out the same (think_test.go checks every cut of a corpus, and the
// fuzz test any cut), as long as no run of white space next to a tag is
// longer than maxThinkHeld: what is held back is bounded by it, so a
// gateway streaming white space a byte at a time costs linear time.
type thinkSplitter struct {
	state thinkState
	held  string // text not yet given out: a possible tag, or white space
	begun bool   // the reasoning's first character came
}

type thinkState int

const (
	thinkStart  thinkState = iota // nothing but white space yet
	thinkInside                   // inside <think>
	thinkAfter                    // after </think>, before the answer's first character
	thinkAnswer                   // the answer: everything passes
)

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// maxThinkHeld bounds what the splitter holds back: past it leading white
// space is the answer's, and white space inside the reasoning is given
// out (keeping the end that may start the closing tag).
const maxThinkHeld = 256

// write takes the next content delta and returns the reasoning and the
// answer it makes certain.
func (t *thinkSplitter) write(s string) (reasoning, answer string) {
	if t.state == thinkAnswer {
		return "", s
	}
	t.held += s
	var r, a strings.Builder
	for {
		switch t.state {
		case thinkStart:
			rest := strings.TrimLeft(t.held, " \t\r\n")
			switch {
			case (rest == "" || strings.HasPrefix(thinkOpen, rest)) && len(t.held) <= maxThinkHeld:
				return r.String(), a.String() // undecided: all white space, or "<thi"
			case strings.HasPrefix(rest, thinkOpen):
				t.held = rest[len(thinkOpen):]
				t.state = thinkInside
			default:
				a.WriteString(t.held)
				t.held = ""
				t.state = thinkAnswer
				return r.String(), a.String()
			}
		case thinkInside:
			if !t.begun {
				if t.held = strings.TrimLeft(t.held, " \t\r\n"); t.held == "" {
					return r.String(), a.String()
				}
				t.begun = true
			}
			if i := strings.Index(t.held, thinkClose); i >= 0 {
				r.WriteString(strings.TrimRight(t.held[:i], " \t\r\n"))
				t.held = t.held[i+len(thinkClose):]
				t.state = thinkAfter
				continue
			}
			// Give out all but what may start the closing tag and the
			// white space before it, which may be the reasoning's end.
			keep := partialSuffix(t.held, thinkClose)
			keep = min(keep+trailingSpace(t.held[:len(t.held)-keep]), maxThinkHeld)
			r.WriteString(t.held[:len(t.held)-keep])
			t.held = t.held[len(t.held)-keep:]
			return r.String(), a.String()
		case thinkAfter:
			rest := strings.TrimLeft(t.held, " \t\r\n")
			if rest == "" {
				t.held = ""
				return r.String(), a.String()
			}
			a.WriteString(rest)
			t.held = ""
			t.state = thinkAnswer
			return r.String(), a.String()
		case thinkAnswer:
			a.WriteString(t.held)
			t.held = ""
			return r.String(), a.String()
		}
	}
}

// flush ends the reply: what is held is the answer's (white space, or a
// "<thi" that never became a tag), or, inside an unclosed <think>, the
// reasoning's.
func (t *thinkSplitter) flush() (reasoning, answer string) {
	held := t.held
	t.held = ""
	switch t.state {
	case thinkStart:
		return "", held
	case thinkInside:
		return strings.TrimRight(held, " \t\r\n"), ""
	}
	return "", ""
}

// partialSuffix is the length of the longest end of s that begins tag
// without being all of it.
func partialSuffix(s, tag string) int {
	for n := min(len(s), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

// trailingSpace is the length of the white space at the end of s.
func trailingSpace(s string) int {
	return len(s) - len(strings.TrimRight(s, " \t\r\n"))
}
