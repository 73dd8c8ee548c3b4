// Package paste decides what a bracketed paste is: one or more files
// dropped on the terminal (in any of the ways terminals quote them), a lone
// http(s) URL, or text. Parse reads the pasted string and, for a paste made
// only of paths, asks the file system whether the paths that are not named
// like images are files (a stat each, bounded in time); Check, which the
// root runs in a command, reads the first bytes of each file. Block makes
// a text too long for the composer a text attachment of its own.
package paste

import (
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"
)

// Bounds on the work Parse does. A paste longer than MaxLen is text without
// being looked at: a drop of a hundred files is a few kilobytes, and a long
// paste is a document. More than MaxPaths paths are text too; the root
// refuses more attachments than attach_max_count with its own message.
const (
	MaxLen   = 64 << 10
	MaxPaths = 100
)

// Kind is what a paste was found to be.
type Kind int

// The kinds of paste.
const (
	// Text is inserted into the composer as typed.
	Text Kind = iota
	// Paths is one or more paths to files, and nothing else: image files
	// by their extension, any other file because it exists (Check then
	// confirms from the contents that each is an image or text).
	Paths
	// URL is a single http(s) URL and nothing else.
	URL
)

// Result is what Parse found.
type Result struct {
	Kind Kind
	// Paths are the files of a Paths paste, in the order pasted, unquoted,
	// unescaped and with ~ and file:// resolved. Relative paths ("./a.png")
	// stay relative to the working directory.
	Paths []string
	// URL is the URL of a URL paste, as pasted.
	URL string
	// ImageURL reports whether the URL names an image by its path's
	// extension (or a format query parameter, as image CDNs use); a link to
	// an article does not, and the root may keep such a paste as text.
	ImageURL bool
}

// Parse says what a bracketed paste is. home is the user's home directory
// for "~/"; when it is empty, a paste using ~ is text.
//
// A paste is Paths when every word of it is a path to a file, as terminals
// paste dropped files: single-quoted (GNOME Terminal, Konsole, kitty), with
// backslash-escaped spaces (iTerm2, WezTerm, Ghostty), double-quoted
// (Windows Terminal, WezTerm's Windows style), as file:// URLs with
// percent-encoding, one per line (a text/uri-list), or with ~ for the home
// directory. Words are separated by ASCII white space only, so the narrow
// no-break space in macOS screenshot names stays inside the name.
// Terminals that quote less are read too: WezTerm's default escapes only
// spaces (an apostrophe stays bare), and some paste names as they are, one
// per line.
//
// A path is a word that starts like one (/, ./, ../, ~/, file://, a
// Windows drive or share); a bare name ("README.md") never is, since no
// terminal drops one. A path named like an image (.png, .jpg, .jpeg, .gif,
// .webp) counts as it is, so a dropped screenshot that turns out missing
// or broken is refused with Check's sentence. Any other path (code,
// Markdown, a log, a name without an extension) counts only when it names
// an existing regular file: "/api/v1/users", "// a comment" or "/etc" stay
// text without a word, while a dropped program reaches Check, which says
// why it cannot be attached. Those stats (no file is opened) are made only
// for a paste that is paths and nothing else, and take at most statWait
// together: a network mount that does not answer leaves the answer to
// Check, which runs off the UI goroutine.
//
// Paths mixed with other text, and anything that no reading turns wholly
// into paths to files, are Text: a paste is never half attached.
func Parse(content, home string) Result {
	return parse(content, home, os.Stat)
}

// statFunc is os.Stat; tests give one that never answers.
type statFunc func(string) (fs.FileInfo, error)

func parse(content, home string, stat statFunc) Result {
	if len(content) > MaxLen {
		return Result{Kind: Text}
	}
	s := strings.Trim(content, asciiSpace)
	if s == "" {
		return Result{Kind: Text}
	}
	if u, ok := loneURL(s); ok {
		return Result{Kind: URL, URL: s, ImageURL: urlNamesImage(u)}
	}
	var deadline time.Time // of the stats, set by the first reading that needs them
	for _, read := range readings(s) {
		var paths, unnamed []string
		whole := read(s, func(w string) bool {
			p, ok := resolve(w, home)
			if !ok || len(paths) == MaxPaths {
				return false
			}
			if !hasImageExt(p) {
				unnamed = append(unnamed, p)
			}
			paths = append(paths, p)
			return true
		})
		if !whole || len(paths) == 0 {
			continue
		}
		if len(unnamed) > 0 {
			if deadline.IsZero() {
				deadline = time.Now().Add(statWait)
			}
			if regularFiles(unnamed, deadline, stat) == notFiles {
				continue // another reading may cut the paste into files
			}
		}
		return Result{Kind: Paths, Paths: paths}
	}
	return Result{Kind: Text}
}

// asciiSpace separates the words of a paste: what terminals put between
// dropped files. Unicode spaces are part of names.
const asciiSpace = " \t\r\n\v\f"

// loneURL reports whether s is one http(s) URL with a host.
func loneURL(s string) (*url.URL, bool) {
	if strings.ContainsAny(s, asciiSpace) {
		return nil, false
	}
	l := strings.ToLower(s)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return nil, false
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return nil, false
	}
	return u, true
}

// urlNamesImage looks at the URL's path and at the query parameters image
// services use for the format ("?format=png", "&fm=jpg").
func urlNamesImage(u *url.URL) bool {
	if hasImageExt(u.Path) {
		return true
	}
	q := u.Query()
	for _, key := range [...]string{"format", "fm", "ext"} {
		if v := strings.ToLower(q.Get(key)); v != "" && hasImageExt("x."+v) {
			return true
		}
	}
	return false
}

// hasImageExt reports whether the last element of p (split at / or \) has
// the extension of a format parley sends, in any case. The bytes decide in
// the end (Check, then media when attaching).
func hasImageExt(p string) bool {
	base := strings.ToLower(p[strings.LastIndexAny(p, `/\`)+1:])
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return false // no extension, or a name that is only one (".png")
	}
	switch base[dot:] {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}
