package cells

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap word-wraps one line of plain text (no escape sequences, no line
// breaks) to lines of at most w cells. It breaks only at spaces: a name
// with a hyphen ("wl-clipboard") or a path stays whole, and punctuation
// stays with its word. A word longer than a whole line is the only thing
// cut, after its last hyphen or slash that fits, or else at the width.
// Leading spaces (an indent) stay on the first line; the spaces at a break
// are dropped. Every other character is kept, in order.
func Wrap(s string, w int) []string {
	w = max(w, 1)
	if Width(s) <= w {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	lw := &lineWrap{w: w}
	if indent := len(s) - len(body); indent < w {
		lw.b.WriteString(s[:indent])
		lw.cells = indent
	}
	gap := ""
	for body != "" {
		word := body
		if i := strings.IndexByte(body, ' '); i >= 0 {
			word = body[:i]
		}
		rest := strings.TrimLeft(body[len(word):], " ")
		lw.word(gap, word)
		gap = body[len(word) : len(body)-len(rest)]
		body = rest
	}
	if lw.words > 0 {
		lw.flush()
	}
	return lw.out
}

// lineWrap is the state of Wrap: the lines so far and the one being
// filled.
type lineWrap struct {
	w     int
	out   []string
	b     strings.Builder
	cells int // width of b
	words int // words in b
}

func (l *lineWrap) flush() {
	l.out = append(l.out, l.b.String())
	l.b.Reset()
	l.cells, l.words = 0, 0
}

// word adds a word and the gap before it.
func (l *lineWrap) word(gap, word string) {
	ww := Width(word)
	if l.words == 0 {
		gap = "" // nothing to separate from (an indent stays)
	}
	switch {
	case l.cells+len(gap)+ww <= l.w:
	case ww <= l.w:
		if l.words > 0 {
			l.flush()
		} else {
			l.b.Reset() // an indent that leaves no room for the word
			l.cells = 0
		}
		gap = ""
	default:
		// Longer than a line: it starts on this line when a third of
		// the line is left, and is cut where the lines end.
		if l.words > 0 && (l.w-l.cells-len(gap))*3 < l.w {
			l.flush()
			gap = ""
		}
		l.b.WriteString(gap)
		l.cells += len(gap)
		for ww > l.w-l.cells {
			head, tail := cutWord(word, l.w-l.cells, l.w)
			l.b.WriteString(head)
			l.words++
			l.flush()
			word = tail
			ww -= Width(head)
		}
		if word == "" {
			return
		}
		gap = ""
	}
	l.b.WriteString(gap)
	l.b.WriteString(word)
	l.cells += len(gap) + ww
	l.words++
}

// cutWord splits a word wider than room cells (on lines of w cells). A
// path is cut after a slash, so that no file or folder name is split: the
// last slash within room whose name after it fits on a line. Otherwise
// after the last hyphen or slash within room when that keeps at least half
// the room, else at room (whole graphemes; at least one, so the cutting
// always progresses).
func cutWord(word string, room, w int) (string, string) {
	room = max(room, 1)
	// One forward scan that stops at the room: the cost is the head's,
	// not the rest of the word's (a 512 KB line without spaces is cut
	// thousands of times).
	n, used := 0, 0
	for n < len(word) {
		g, gw := ansi.FirstGraphemeCluster(word[n:], ansi.GraphemeWidth)
		if used+gw > room && n > 0 {
			break
		}
		n += len(g)
		used += gw
		if used >= room {
			break
		}
	}
	head := word[:n]
	if i := strings.LastIndexByte(head, '/'); i > 0 {
		name := word[i+1:]
		if j := strings.IndexByte(name, '/'); j >= 0 {
			name = name[:j+1]
		}
		if len(name) <= 4*w && Width(name) <= w { // a cell takes at most 4 bytes: no long measuring
			return word[:i+1], word[i+1:]
		}
	}
	if i := strings.LastIndexAny(head, "-/"); i >= 0 && Width(head[:i+1]) >= room/2 {
		head = head[:i+1]
	}
	return head, word[len(head):]
}

// WrapLines is Wrap for plain text that may hold line breaks: each line is
// wrapped on its own, and an empty line stays.
func WrapLines(s string, w int) []string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if l == "" {
			out = append(out, "")
			continue
		}
		out = append(out, Wrap(l, w)...)
	}
	return out
}

// WrapWithin is WrapLines bounded to h lines (at least one). Text that
// needs more lines than that keeps its first lines whole and ends with
// "… " and more, which says where the whole text is read: the pointer is
// wrapped like the text, never cut, so a reader always learns where the
// rest is, and no word shown is cut short.
func WrapWithin(s string, w, h int, more string) []string {
	w, h = max(w, 1), max(h, 1)
	ls := WrapLines(s, w)
	if len(ls) <= h {
		return ls
	}
	marker := Ellipsis + " " + more
	if last := ls[h-1] + " " + marker; Width(last) <= w {
		return append(ls[:h-1:h-1], last)
	}
	tail := Wrap(marker, w)
	if len(tail) >= h {
		return tail[:h]
	}
	return append(ls[:h-len(tail):h-len(tail)], tail...)
}
