// Package paste decides what a bracketed paste is: one or more image files
// dropped on the terminal (in any of the ways terminals quote them), a lone
// http(s) URL, or text. It only reads the pasted string; Check, which the
// root runs in a command, confirms the files on disk.
package paste

import (
	"net/url"
	"strings"
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
	// Paths is one or more paths to image files (by their extension; Check
	// confirms the contents), and nothing else.
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
// A paste is Paths when every word of it is a path to an image file, as
// terminals paste dropped files: single-quoted (GNOME Terminal, Konsole,
// kitty), with backslash-escaped spaces (iTerm2, WezTerm, Ghostty),
// double-quoted (Windows Terminal, WezTerm's Windows style), as file:// URLs
// with percent-encoding, one per line (a text/uri-list), or with ~ for the
// home directory. Words are separated by ASCII white space only, so the
// narrow no-break space in macOS screenshot names stays inside the name.
// Terminals that quote less are read too: WezTerm's default escapes only
// spaces (an apostrophe stays bare), and some paste names as they are, one
// per line. Paths mixed with other text, paths to other files and anything
// that no reading turns wholly into image paths are Text: a paste is never
// half attached.
func Parse(content, home string) Result {
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
	for _, read := range readings(s) {
		var paths []string
		whole := read(s, func(w string) bool {
			p, ok := resolve(w, home)
			if !ok || !hasImageExt(p) || len(paths) == MaxPaths {
				return false
			}
			paths = append(paths, p)
			return true
		})
		if whole && len(paths) > 0 {
			return Result{Kind: Paths, Paths: paths}
		}
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
