package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// The composer holds at most composerMaxLines lines and composerMaxBytes
// bytes of text. The textarea measures, wraps and draws every line of its
// text on every key, twice (in Update and in View), and wraps the line
// being edited again: a key costs about 1.5 ms of CPU with 25 lines of 80
// bytes, 4.7 ms with 100, 9 ms with 400, 3.6 ms with 100 short lines and
// 7 ms with 200, 3.6 ms with one line of 8 KB and 6.2 ms with one of
// 16 KB (BenchmarkKeystrokeComposerSize, 120 columns), and about 0.7 s
// with 1 MB. 100 lines and 8 KB keep a key under 5 ms whatever their
// shape (BENCHMARKS.md, "Text in the composer (issue 18 §5)"). Text that
// would pass either goes on the message as a block instead
// (pasteblock.go).
const (
	composerMaxLines = 100
	composerMaxBytes = 8000
)

// withinBound reports whether a text of n bytes in lines lines fits the
// composer.
func withinBound(n, lines int) bool {
	return n <= composerMaxBytes && lines <= composerMaxLines
}

// textLines is the lines s makes in the textarea, which takes a CR as a
// line break too.
func textLines(s string) int {
	return 1 + strings.Count(s, "\n") + strings.Count(s, "\r")
}

// fits reports whether s, typed at the cursor, keeps the composer within
// its bound.
func (c *composer) fits(s string) bool {
	if len(s) > composerMaxBytes {
		return false // no need to read the text
	}
	return withinBound(len(c.ta.Value())+len(s), c.ta.LineCount()+textLines(s)-1)
}

// refusesKey reports whether a key would type past the bound: a printable
// key, or the newline key on the last line there may be.
func (c *composer) refusesKey(msg tea.KeyPressMsg, km *keys.Map) bool {
	switch {
	case keys.Matches(msg, km.Newline):
		return c.ta.LineCount() >= composerMaxLines
	case msg.Text != "":
		return !c.fits(msg.Text)
	}
	return false
}
