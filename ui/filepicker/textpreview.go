package filepicker

import (
	"bytes"
	"path/filepath"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/termsafe"
	"parley/ui/cells"
)

// A text file's preview is made here, not by the root: it is the file's
// first lines, read in a command (at most previewBytes), made inert and
// drawn as text. The same read tells the row its kind from more bytes
// than the list's look, so it also settles a file the list has not
// reached yet.

// Bounds of a text preview.
const (
	// previewBytes is the most of a file a preview reads.
	previewBytes = 16 << 10
	// previewLineMax is the most lines kept: more than any preview box.
	previewLineMax = 200
	// lineBytesMax cuts a very long line (minified JSON) to what a box
	// can show, so drawing it stays cheap.
	lineBytesMax = 1024
	// tabWidth is the tab stop of the preview (a half-width box).
	tabWidth = 4
)

// peekMsg is what the first bytes of the highlighted file say: its kind
// and, for text, its first lines.
type peekMsg struct {
	p    *Picker
	path string
	kind fileKind
	why  string
	size int64
	// lines are the file's first lines, inert, tabs expanded; whole says
	// they are all of it, and then count is how many lines it has.
	lines []string
	whole bool
	count int
	err   error
}

// peek reads the start of path in a command.
func (p *Picker) peek(path string) tea.Cmd {
	parent := p.opts.Context
	return func() tea.Msg {
		msg := peekMsg{p: p, path: path}
		if err := parent.Err(); err != nil { // the picker was closed
			msg.err = err
			return msg
		}
		head, size, err := readHead(path, previewBytes)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.size, msg.whole = size, int64(len(head)) == size
		msg.kind, msg.why = classify(head)
		if msg.kind == kindText {
			msg.lines = textLines(head, msg.whole)
			if msg.whole {
				msg.count = api.CountLines(head)
			}
		}
		return msg
	}
}

// wantPeek is the file whose first bytes the preview needs: the
// highlighted file, when there is a preview box and its kind is text or
// not known yet (an image's preview is the root's; a file that cannot be
// attached shows why).
func (p *Picker) wantPeek() string {
	pw, ph := p.previewBox()
	e, ok := p.list.Selected()
	if !ok || e.dir || pw < 4 || ph < 2 || p.loading || (e.kind != kindUnknown && e.kind != kindText) {
		return ""
	}
	return filepath.Join(p.dir, e.name)
}

// peekRequest reads the first bytes the preview needs, once.
func (p *Picker) peekRequest() tea.Cmd {
	path := p.wantPeek()
	if path == "" || path == p.peeking || path == p.peeked.path {
		return nil
	}
	p.peeking = path
	return p.peek(path)
}

// peekAnswered takes what a file's first bytes say: its row learns its
// kind, and the answer to the latest request is the preview's.
func (p *Picker) peekAnswered(msg peekMsg) {
	if msg.path == p.peeking {
		p.peeking, p.peeked = "", msg
	}
	if msg.err != nil || filepath.Dir(msg.path) != p.dir {
		return
	}
	name := filepath.Base(msg.path)
	for i, e := range p.list.Items() {
		if e.name == name && !e.dir {
			if e.kind != msg.kind || e.why != msg.why || e.size != msg.size {
				e.kind, e.why, e.size = msg.kind, msg.why, msg.size
				p.list.SetItem(i, e)
			}
			return
		}
	}
}

// textLines makes the first lines of a text file safe to draw: a byte
// order mark and a character cut at the end of the read dropped, CR of
// CRLF dropped, tabs expanded, every control character a visible
// placeholder (termsafe), long lines cut.
func textLines(head []byte, whole bool) []string {
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if !whole {
		head = dropCutRune(head)
	}
	text := string(head)
	if whole {
		text = strings.TrimSuffix(text, "\n")
	}
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		if len(out) == previewLineMax {
			break
		}
		l = strings.TrimSuffix(l, "\r")
		if len(l) > lineBytesMax {
			l = string(dropCutRune([]byte(l[:lineBytesMax])))
		}
		out = append(out, expandTabs(termsafe.Sanitize(l)))
	}
	return out
}

// dropCutRune drops a character cut short at the end of b.
func dropCutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// expandTabs replaces each tab by the spaces to the next tab stop,
// counting cells (wide characters take two).
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for i, seg := range strings.Split(s, "\t") {
		if i > 0 {
			n := tabWidth - col%tabWidth
			b.WriteString(cells.Spaces(n))
			col += n
		}
		b.WriteString(seg)
		col += cells.Width(seg)
	}
	return b.String()
}
