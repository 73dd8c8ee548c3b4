package ui

import (
	"context"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// attachTyped attaches the paths or links /attach names, off Update. A
// path with spaces typed without quotes comes as several words
// (joinSpaced puts it together again). At most as many as the message has
// room for (attach_max_count) are read: the rest are refused and said so.
// line is the command as typed: when the attaching fails it goes back
// into the composer, so a long path need not be typed again.
func (w *work) attachTyped(words []string, room blockRoom, have int, line string) tea.Cmd {
	ctx := w.startAttaching()
	return func() tea.Msg {
		refs := joinSpaced(ctx, words)
		keep := min(max(room.maxCount-have, 0), len(refs))
		msg := attachRefs(ctx, refs[:keep], "", room.lim)
		if msg.err != nil && !stopped(msg.err) && len(refs) > 1 && !strings.Contains(refs[0], "://") && !regularFile(refs[0]) {
			// Perhaps one path with spaces, mistyped: the words joined name
			// no file either (joinSpaced would have found it), so say so
			// rather than advise quotes that cannot help.
			msg.err = fmt.Errorf("%w, and no file is named %s either, the words joined", msg.err, `"`+strings.Join(words, " ")+`"`)
		}
		msg.line = line
		if keep < len(refs) {
			msg.said = tooManyFiles(room.maxCount, len(refs)-keep, len(refs))
		}
		return msg
	}
}

// maxJoined bounds the paths joinSpaced tries: the longest path a system
// takes (PATH_MAX), and as many words as that can hold; a pasted line of
// thousands of words costs at most this many lookups a word.
const (
	maxJoinedBytes = 4096
	maxJoinedWords = 64
)

// joinSpaced undoes the split of an unquoted path with spaces: where a
// word names no file (nothing, or a folder) but it and the words after
// it, joined with spaces, name a file ("/tmp/my" "photo.png" for
// "/tmp/my photo.png", "~/Pictures/Holiday" "2023.png" where the folder
// Holiday is beside the file), that path takes their place; the longest
// such run wins. A word that names a file, or is a link, stays as it is.
// Nothing else could be meant, so the file is attached rather than
// refused with advice about quoting.
func joinSpaced(ctx context.Context, words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		n := 1
		if len(words)-i > 1 && !strings.Contains(words[i], "://") && !regularFile(words[i]) {
			n = spacedRun(ctx, words[i:])
		}
		out = append(out, strings.Join(words[i:i+n], " "))
		i += n - 1
	}
	return out
}

// spacedRun is how many of words, from the first, joined with spaces
// name a file: the longest such run within maxJoined, or 1 when none does
// (or ctx ended).
func spacedRun(ctx context.Context, words []string) int {
	n, size := 0, -1
	for n < len(words) && n < maxJoinedWords && size+1+len(words[n]) <= maxJoinedBytes {
		size += 1 + len(words[n])
		n++
	}
	for ; n > 1; n-- {
		if ctx.Err() != nil {
			return 1
		}
		if regularFile(strings.Join(words[:n], " ")) {
			return n
		}
	}
	return 1
}

// regularFile reports whether path names a regular file (through links):
// whether it is an image or text is for the attaching to say.
func regularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
