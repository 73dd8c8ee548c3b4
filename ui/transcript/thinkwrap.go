package transcript

import (
	"strings"
	"unicode/utf8"

	"parley/ui/cells"
)

// thinkWrap word-wraps text that only grows (a reasoning as it streams) at
// one room, doing for each update only the work for what was added: the
// lines that can no longer change are kept (lines), and only the rest of
// the text (from from on) is wrapped again. The lines are those wrapPlain
// gives for the whole text (TestThinkWrapIsIncremental).
//
// Why a line becomes final: cells.Wrap is greedy, so text added at the end
// can change only the line its last word is on and the one before it (a
// word too long for a line starts on the line before when a third of that
// line is left). Every line but the last keepOpen is final, and wrapping
// again from the start of a line gives the same lines as wrapping the whole
// paragraph (the wrapper's state is empty at a line's start). A paragraph
// that ended (a line break followed) is final whole.
//
// grow feeds what was added in steps of at most wrapStep bytes: cells.Wrap
// measures a word longer than a line again for every piece it cuts off
// it, so one hostile line of 500 KB without a space, wrapped whole, took
// minutes; in steps, the part wrapped again is a few lines and a step.
type thinkWrap struct {
	room  int
	lines []string // final lines
	from  int      // the offset in the text where the lines not final start
	open  []string // the lines of the text from from on, at the last update
	seen  int      // the length of the text at the last update
}

// wrapStep is the most text grow adds to the open part per update.
const wrapStep = 1 << 10

// keepOpen is how many of the last lines of the open paragraph are
// wrapped again at every update (two can change; one more for safety).
const keepOpen = 3

// reset forgets every line and sets the room (a new width).
func (w *thinkWrap) reset(room int) {
	clear(w.lines)
	*w = thinkWrap{room: max(room, 1), lines: w.lines[:0]}
}

// grow wraps what text gained since the last update, in steps; text must
// start with the text of the last update.
func (w *thinkWrap) grow(text string) {
	for w.seen < len(text) {
		n := min(w.seen+wrapStep, len(text))
		for n < len(text) && !utf8.RuneStart(text[n]) {
			n++
		}
		w.update(text[:n])
	}
}

// wrapReasoning wraps a whole reasoning (safe, laid out) as wrapPlain does,
// in steps (see thinkWrap).
func wrapReasoning(text string, room int) []string {
	if strings.IndexByte(text, '\t') >= 0 {
		text = strings.ReplaceAll(text, "\t", tabSpaces)
	}
	var w thinkWrap
	w.reset(room)
	w.grow(text)
	return append(w.lines, w.open...)
}

// update wraps what text gained since the last update in one go; text
// must start with the text of the last update.
func (w *thinkWrap) update(text string) {
	w.seen = len(text)
	rest := text[w.from:]
	if k := strings.LastIndexByte(rest, '\n'); k >= 0 {
		for para := range strings.SplitSeq(rest[:k], "\n") {
			if para == "" {
				w.lines = append(w.lines, "")
				continue
			}
			w.lines = append(w.lines, cells.Wrap(para, w.room)...)
		}
		w.from += k + 1
		rest = rest[k+1:]
	}
	w.open = w.open[:0]
	if rest == "" {
		return
	}
	open := cells.Wrap(rest, w.room)
	if n := len(open) - keepOpen; n > 0 {
		if off, ok := lineStart(rest, open, n); ok {
			w.lines = append(w.lines, open[:n]...)
			w.from += off
			open = open[n:]
		}
	}
	w.open = append(w.open, open...)
}

// lineStart finds where line n of lines, the wrapping of one paragraph p,
// starts in p. Each line is a piece of p and only spaces lie between two
// (the spaces at a break are dropped; an indent too wide for the first
// line too); false when the lines do not match p that way, and then
// nothing is taken as final.
func lineStart(p string, lines []string, n int) (int, bool) {
	pos := 0
	for i := 0; i <= n; i++ {
		l := lines[i]
		if !strings.HasPrefix(p[pos:], l) {
			q := pos
			for q < len(p) && p[q] == ' ' {
				q++
			}
			if q == pos || !strings.HasPrefix(p[q:], l) {
				return 0, false
			}
			pos = q
		}
		if i == n {
			return pos, l != ""
		}
		pos += len(l)
	}
	return 0, false
}

// shown returns how many of lines and then of open are shown: blank lines
// at the end are not.
func shown(lines, open []string) (nl, no int) {
	nl, no = len(lines), len(open)
	for no > 0 && strings.TrimSpace(open[no-1]) == "" {
		no--
	}
	if no == 0 {
		for nl > 0 && strings.TrimSpace(lines[nl-1]) == "" {
			nl--
		}
	}
	return nl, no
}
