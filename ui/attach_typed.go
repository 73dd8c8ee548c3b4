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
		if msg.err != nil && !stopped(msg.err) && len(refs) > 1 && !strings.Contains(refs[0], "://") && !fileExists(refs[0]) {
			// Perhaps one path with spaces, mistyped: say how to write it.
			msg.err = fmt.Errorf("%w (a path with spaces goes in quotes: /attach %q)", msg.err, strings.Join(words, " "))
		}
		msg.line = line
		if keep < len(refs) {
			msg.said = tooManyFiles(room.maxCount, len(refs)-keep, len(refs))
		}
		return msg
	}
}

// joinSpaced undoes the split of an unquoted path with spaces: where a
// word names no file but it and the words after it, joined with spaces,
// do ("/tmp/my" "photo.png" for "/tmp/my photo.png"), that path takes
// their place; the longest such run wins. A word that names a file (or
// is a link, which names none joined either) stays as it is. Nothing else
// could be meant, so the file is attached rather than refused with advice
// about quoting.
func joinSpaced(ctx context.Context, words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		n := 1
		if len(words)-i > 1 && !fileExists(words[i]) && ctx.Err() == nil {
			n = spacedRun(words[i:])
		}
		out = append(out, strings.Join(words[i:i+n], " "))
		i += n - 1
	}
	return out
}

// spacedRun is how many of words, from the first, joined with spaces
// name a file: the longest such run, or 1 when none does.
func spacedRun(words []string) int {
	for n := len(words); n > 1; n-- {
		if fileExists(strings.Join(words[:n], " ")) {
			return n
		}
	}
	return 1
}

// fileExists reports whether path names anything (a file, a folder, a
// link): whether it is an image or text is for the attaching to say.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
