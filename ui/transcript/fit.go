package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
	"parley/ui/cells"
)

// tabSpaces replaces a tab: the terminal would move to its own tab stop,
// which no width measurement can know, so a tab is shown as spaces.
const tabSpaces = "    "

const sgrReset = "\x1b[m"

// fitLine appends line to dst as one or more lines of exactly w cells,
// each starting with prefix (prefixW cells wide, trusted). Lines wider than
// the room left are wrapped hard (code lines must not be lost off the right
// edge), narrower ones padded with spaces, so every cached line measures
// exactly the transcript width.
//
// line may come from a renderer that saw untrusted text; KeepSGR removes
// every escape sequence in it except colours (glamour's OSC 8 hyperlinks, a
// sequence decoded from a character reference), so no line that reaches the
// screen can do anything but colour text.
func fitLine(dst []string, prefix string, prefixW int, line string, w int) []string {
	room := w - prefixW
	if room < 1 {
		// Narrower than the prefix: drop it rather than break the width.
		prefix, prefixW, room = "", 0, max(w, 1)
	}
	line = cells.Detach(termsafe.KeepSGR(line))
	if strings.IndexByte(line, '\t') >= 0 {
		line = strings.ReplaceAll(line, "\t", tabSpaces)
	}
	lw := cells.Width(line)
	if lw <= room {
		return append(dst, finishLine(prefix, line, room-lw))
	}
	for part := range strings.SplitSeq(ansi.Hardwrap(line, room, true), "\n") {
		part = cells.Detach(part)
		pw := ansi.StringWidth(part)
		if pw > room { // a single grapheme wider than the room (w = 1, wide char)
			part = ansi.Truncate(part, room, "")
			pw = ansi.StringWidth(part)
		}
		dst = append(dst, finishLine(prefix, part, room-pw))
	}
	return dst
}

// finishLine joins prefix, line and pad spaces, closing any colour the line
// left open so it cannot bleed into the padding, the next line or whatever
// the root draws beside the transcript.
func finishLine(prefix, line string, pad int) string {
	var b strings.Builder
	b.Grow(len(prefix) + len(line) + len(sgrReset) + pad)
	b.WriteString(prefix)
	b.WriteString(line)
	if strings.IndexByte(line, '\x1b') >= 0 && !strings.HasSuffix(line, sgrReset) && !strings.HasSuffix(line, "\x1b[0m") {
		b.WriteString(sgrReset)
	}
	writeSpaces(&b, pad)
	return b.String()
}

const spaces64 = "                                                                "

func writeSpaces(b *strings.Builder, n int) {
	for n > len(spaces64) {
		b.WriteString(spaces64)
		n -= len(spaces64)
	}
	if n > 0 {
		b.WriteString(spaces64[:n])
	}
}

// blankLine returns w spaces.
func blankLine(w int) string {
	var b strings.Builder
	b.Grow(w)
	writeSpaces(&b, w)
	return b.String()
}

// wrapPlain word-wraps trusted-clean plain text (already sanitised) to room
// cells, keeping the user's line breaks and blank lines, and styles each
// resulting line with style (nil for none). Lines break at spaces only
// (cells.Wrap): names with hyphens and paths stay whole unless longer than
// a line.
func wrapPlain(text string, room int, style func(...string) string) []string {
	if room < 1 {
		room = 1
	}
	if strings.IndexByte(text, '\t') >= 0 {
		text = strings.ReplaceAll(text, "\t", tabSpaces)
	}
	var out []string
	for para := range strings.SplitSeq(text, "\n") {
		if para == "" {
			out = append(out, "")
			continue
		}
		for _, l := range cells.Wrap(para, room) {
			if style != nil && l != "" {
				l = style(l)
			}
			out = append(out, l)
		}
	}
	return out
}
