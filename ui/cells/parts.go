package cells

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// zwsp is U+200B ZERO WIDTH SPACE: zero cells in both measures, and a
// grapheme break on both sides (a control, for segmentation), so the parts
// it separates stay apart.
const zwsp = "\u200b"

// Parts rewrites text for a terminal that measures it one code point at a
// time (wcwidth: terminals without mode 2027, tmux among them), so that it
// can be laid out by grapheme cluster and still take exactly the cells the
// terminal gives it. A cluster whose two widths agree is kept whole. One
// whose widths differ (a ZWJ sequence such as 👨‍👩‍👧, an emoji with a skin
// tone or a variation selector, a keycap, conjoining jamo, some Thai and
// Indic clusters) is shown as its parts, every one of them: joiners and
// variation selectors, which only ask for one glyph, are dropped, and a
// zero width space separates two parts that would otherwise join again.
// Such a terminal draws the parts side by side anyway; laid out as one
// cluster, the line would overflow and ForWcWidth would have to cut the
// cluster to its first code point (👨‍👩‍👧 shown as 👨).
//
// Text is plain (no escape sequences). Text without such clusters is
// returned as it is, without copying.
func Parts(s string) string {
	if !mayDisagree(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	state := -1
	for rest := s; len(rest) > 0; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if utf8.RuneCountInString(cluster) == 1 || agree(cluster) {
			b.WriteString(cluster)
			continue
		}
		writeParts(&b, cluster)
	}
	return b.String()
}

// agree reports whether both measures give s the same width.
func agree(s string) bool {
	return ansi.GraphemeWidth.StringWidth(s) == ansi.WcWidth.StringWidth(s)
}

// writeParts writes the parts of a cluster whose widths differ: its code
// points without joiners and variation selectors, each added to the part
// before it while the part still measures the same both ways.
func writeParts(b *strings.Builder, cluster string) {
	part := ""
	for _, r := range cluster {
		if r == 0x200D || r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF {
			continue
		}
		next := part + string(r)
		if part != "" && !agree(next) {
			b.WriteString(part)
			b.WriteString(zwsp)
			next = string(r)
		}
		part = next
	}
	b.WriteString(part)
}

// PartsStream is Parts for text that arrives in pieces, each written out
// at once (only a joiner at the end of a piece waits for the next): a piece
// that starts by joining the cluster the last piece ended with (a skin
// tone, a joiner, a keycap or combining mark) is laid out as the rest of
// that cluster's parts, so that the pieces give what Parts gives for the
// whole text. The zero value is ready to use.
type PartsStream struct {
	tail string // the last cluster written
	zwj  bool   // a joiner that ended the last piece is held back
}

// Write lays out the next piece.
func (p *PartsStream) Write(s string) string {
	if p.zwj {
		s, p.zwj = "\u200d"+s, false
	}
	if t, ok := strings.CutSuffix(s, "\u200d"); ok {
		// A joiner joins the next piece's first code point: it waits for
		// it (it takes no cell).
		s, p.zwj = t, true
	}
	if s == "" {
		return ""
	}
	var b strings.Builder
	if p.tail != "" && mayDisagree(s) {
		joined, _, _, _ := uniseg.FirstGraphemeClusterInString(p.tail+s, -1)
		if ext := joined[min(len(p.tail), len(joined)):]; ext != "" && !agree(joined) {
			// The piece goes on with the last cluster, which is written
			// already: its code points follow as further parts.
			part := p.tail
			for _, r := range ext {
				if r == 0x200D || r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF {
					continue
				}
				if !agree(part + string(r)) {
					b.WriteString(zwsp)
					part = ""
				}
				b.WriteRune(r)
				part += string(r)
			}
			s = s[len(ext):]
		}
	}
	b.WriteString(Parts(s))
	out := b.String()
	switch {
	case out == "":
	case out[len(out)-1] < utf8.RuneSelf:
		// An ASCII character ends a cluster of its own (or a CR LF,
		// which nothing joins).
		p.tail = out[len(out)-1:]
	default:
		p.tail = lastCluster(p.tail + out)
	}
	return out
}

// lastCluster is the last grapheme cluster of s.
func lastCluster(s string) string {
	last, state := "", -1
	for rest := s; len(rest) > 0; {
		last, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
	}
	return last
}

// Detach makes sure a line does not begin with a code point that would
// join what is put before it (a skin tone, a combining mark, a joiner or a
// variation selector: wrapped text can start a line with one, and after an
// indent it would join the indent's last space, taking its cell). It puts
// a zero width space, which takes no cell, in front of such a code point;
// escape sequences before it are skipped.
func Detach(line string) string {
	i := 0
	for i < len(line) && line[i] == 0x1b {
		i += max(escapeLen(line[i:]), 1)
	}
	if i >= len(line) || line[i] < utf8.RuneSelf {
		return line
	}
	r, _ := utf8.DecodeRuneInString(line[i:])
	if !joins(r) {
		return line
	}
	return line[:i] + zwsp + line[i:]
}

// joins reports whether r joins the code point before it into one
// grapheme cluster.
func joins(r rune) bool {
	return r == 0x200D || r >= 0xFE00 && r <= 0xFE0F || r >= 0x1F3FB && r <= 0x1F3FF ||
		r >= 0xE0020 && r <= 0xE007F || unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc)
}
