package paste

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"
)

// A reading cuts a paste into words and hands them to yield one at a time,
// stopping as soon as yield returns false. It reports whether it read the
// whole paste: false for a syntax error (an unterminated quote, a trailing
// backslash) or when yield stopped it. Words are handed over as they are
// found, so a long paste that is text is given up at its first word that
// is not an image path, without splitting the rest.
type reading func(s string, yield func(word string) bool) bool

// readings are the ways of cutting a paste into words, tried in order
// until one makes only image paths. A paste that starts with a Windows path
// (C:\…, \\server\…) is read as Windows Terminal writes it: double quotes
// group, backslashes are path separators. Anything else is read by the
// POSIX shell's rules (GNOME Terminal, Konsole, kitty, iTerm2, Ghostty),
// then with only "\ " as an escape (WezTerm's default, which leaves quotes
// bare), then as one name a line with nothing escaped.
func readings(s string) []reading {
	if windowsStyle(s) {
		return []reading{splitWindows, splitLines}
	}
	return []reading{splitPOSIX, splitSpacesOnly, splitLines}
}

func isSpace(c byte) bool { return strings.IndexByte(asciiSpace, c) >= 0 }

// splitPOSIX reads single quotes (everything literal up to the next '),
// double quotes (a backslash escapes only $ ` " \ and a newline inside) and
// unquoted backslashes (escaping the next byte), as a shell would.
func splitPOSIX(s string, yield func(string) bool) bool {
	var b strings.Builder
	inWord := false // a word has begun, so '' is an empty word
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isSpace(c):
			if inWord {
				if !yield(b.String()) {
					return false
				}
				b.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			closed := false
			for i++; i < len(s); i++ {
				d := s[i]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
					d = s[i]
				}
				b.WriteByte(d)
			}
			if !closed {
				return false
			}
			inWord = true
		case c == '\\':
			if i+1 == len(s) {
				return false
			}
			i++
			if s[i] != '\n' { // a backslash-newline joins lines
				b.WriteByte(s[i])
				inWord = true
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	return !inWord || yield(b.String())
}

// splitSpacesOnly splits at spaces and line breaks that are not escaped;
// "\ " is a space in a name, and every other byte is itself.
func splitSpacesOnly(s string, yield func(string) bool) bool {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && s[i+1] == ' ':
			b.WriteByte(' ')
			i++
		case isSpace(c):
			if b.Len() > 0 {
				if !yield(b.String()) {
					return false
				}
				b.Reset()
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.Len() == 0 || yield(b.String())
}

// splitLines takes each non-blank line as one name, as it is (a terminal
// that pastes names unquoted, such as Alacritty). A line in which a later
// word starts like a path or a URL is a sentence about files, not a name:
// "/tmp/a.png and /tmp/b.png" stays text.
func splitLines(s string, yield func(string) bool) bool {
	for l := range strings.SplitSeq(s, "\n") {
		l = strings.Trim(l, asciiSpace)
		if l == "" {
			continue
		}
		if f := strings.Fields(l); len(f) > 1 && slices.ContainsFunc(f[1:], startsLikeAPath) {
			return false
		}
		if !yield(l) {
			return false
		}
	}
	return true
}

func startsLikeAPath(w string) bool {
	if _, ok := resolve(w, "/"); ok || isDrivePath(w) {
		return true
	}
	l := strings.ToLower(w)
	return strings.HasPrefix(l, "~") || strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:")
}

// splitWindows reads double quotes as grouping only; every other byte,
// backslashes and single quotes included, is part of the word.
func splitWindows(s string, yield func(string) bool) bool {
	var b strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			inWord = true
		case isSpace(c) && !quoted:
			if inWord {
				if !yield(b.String()) {
					return false
				}
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return false
	}
	return !inWord || yield(b.String())
}

// windowsStyle reports whether the paste begins (after an optional double
// quote) with a drive path or a UNC path.
func windowsStyle(s string) bool {
	s = strings.TrimPrefix(s, `"`)
	return isDrivePath(s) || strings.HasPrefix(s, `\\`)
}

// isDrivePath reports whether s starts like C:\ or C:/.
func isDrivePath(s string) bool {
	return len(s) >= 3 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') && s[1] == ':' && (s[2] == '\\' || s[2] == '/')
}

// resolve turns one word into a path, or reports false when the word is
// not a path: an absolute path, ./ or ../, ~/ under home, a Windows drive,
// UNC or relative path, or a local file:// URL. Words with control
// characters are never paths: no file manager makes such names, and a
// paste carrying escape sequences is not a drop.
func resolve(w, home string) (string, bool) {
	if w == "" || strings.ContainsFunc(w, isControl) {
		return "", false
	}
	switch {
	case len(w) >= 7 && strings.EqualFold(w[:7], "file://"):
		return fileURL(w)
	case strings.HasPrefix(w, "~/"), strings.HasPrefix(w, `~\`):
		if home == "" || len(w) == 2 {
			return "", false
		}
		return filepath.Join(home, w[2:]), true
	case strings.HasPrefix(w, "/"), strings.HasPrefix(w, "./"), strings.HasPrefix(w, "../"),
		isDrivePath(w), strings.HasPrefix(w, `\\`), strings.HasPrefix(w, `.\`), strings.HasPrefix(w, `..\`):
		return w, true
	}
	return "", false
}

// fileURL decodes a file:// URL on this machine (no host, or localhost)
// into a path: file:///home/a/My%20Shot.png is /home/a/My Shot.png, and
// file:///C:/Shots/a.png is C:/Shots/a.png. A URL with a query or a
// fragment is not a file (a name with # is sent encoded as %23).
func fileURL(w string) (string, bool) {
	u, err := url.Parse(w)
	if err != nil || u.Opaque != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", false
	}
	p := u.Path
	if len(p) > 1 && p[0] == '/' && isDrivePath(p[1:]) {
		p = p[1:]
	}
	if !strings.HasPrefix(p, "/") && !isDrivePath(p) || strings.ContainsFunc(p, isControl) {
		return "", false
	}
	return p, true
}

// isControl is a C0 or C1 control character or DEL.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f
}
