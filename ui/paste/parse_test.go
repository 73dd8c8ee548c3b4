package paste

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const home = "/home/ada"

func TestParsePaths(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"single path", "/tmp/shot.png", []string{"/tmp/shot.png"}},
		{"trailing space and newline (GNOME Terminal, kitty)", "'/tmp/shot.png' \n", []string{"/tmp/shot.png"}},
		{"upper-case extension", "/tmp/IMG_0001.JPG", []string{"/tmp/IMG_0001.JPG"}},
		{"every format", "/a/1.png /a/2.jpg /a/3.jpeg /a/4.gif /a/5.webp",
			[]string{"/a/1.png", "/a/2.jpg", "/a/3.jpeg", "/a/4.gif", "/a/5.webp"}},
		{"several single-quoted (GNOME Terminal, Konsole)", "'/home/ada/My Shots/a b.png' '/home/ada/c.jpg' ",
			[]string{"/home/ada/My Shots/a b.png", "/home/ada/c.jpg"}},
		{"a quote inside single quotes", `'/tmp/Ada'\''s shot.png'`, []string{"/tmp/Ada's shot.png"}},
		{"double-quoted", `"/tmp/my shot.png" "/tmp/a \"b\".png"`, []string{"/tmp/my shot.png", `/tmp/a "b".png`}},
		{"backslash-escaped spaces (iTerm2, WezTerm, Ghostty)", `/Users/ada/Desktop/Screen\ Shot\ 2026-11-23\ at\ 10.00.00.png /Users/ada/b\(1\).png`,
			[]string{"/Users/ada/Desktop/Screen Shot 2026-11-23 at 10.00.00.png", "/Users/ada/b(1).png"}},
		{"macOS narrow no-break space stays in the name", "/Users/ada/Screenshot\\ at\\ 10.00.00\u202fPM.png /Users/ada/b.png",
			[]string{"/Users/ada/Screenshot at 10.00.00\u202fPM.png", "/Users/ada/b.png"}},
		{"WezTerm's SpacesOnly leaves an apostrophe and $ bare", `/home/ada/Ada's\ shot\ ($1).png /home/ada/b.png`,
			[]string{"/home/ada/Ada's shot ($1).png", "/home/ada/b.png"}},
		{"unquoted names, one a line", "/home/ada/My Shots/a b.png\n/home/ada/Ada's c.jpg\n",
			[]string{"/home/ada/My Shots/a b.png", "/home/ada/Ada's c.jpg"}},
		{"Windows, unquoted with a space", `C:\Users\Ada\My Shot.png`, []string{`C:\Users\Ada\My Shot.png`}},
		{"macOS narrow no-break space, escaped", `/Users/ada/Screenshot\ 2026-11-23\ at\ 10.00.00` + "\u202f" + `PM.png`,
			[]string{"/Users/ada/Screenshot 2026-11-23 at 10.00.00\u202fPM.png"}},
		{"one per line", "/tmp/a.png\n/tmp/b.png\n", []string{"/tmp/a.png", "/tmp/b.png"}},
		{"uri-list with CRLF", "file:///tmp/a.png\r\nfile:///tmp/b.png\r\n", []string{"/tmp/a.png", "/tmp/b.png"}},
		{"file URL with percent-encoding", "file:///home/ada/My%20Shots/%C3%A9t%C3%A9%20%231.png",
			[]string{"/home/ada/My Shots/été #1.png"}},
		{"file URL with localhost", "file://localhost/tmp/a.png", []string{"/tmp/a.png"}},
		{"FILE URL in capitals", "FILE:///tmp/a.png", []string{"/tmp/a.png"}},
		{"file URL quoted", "'file:///tmp/a%20b.png'", []string{"/tmp/a b.png"}},
		{"tilde", "~/Pictures/a.png", []string{home + "/Pictures/a.png"}},
		{"tilde quoted and escaped", `'~/Pictures/a b.png' ~/c\ d.gif`, []string{home + "/Pictures/a b.png", home + "/c d.gif"}},
		{"relative with ./ and ../", "./a.png ../b.webp", []string{"./a.png", "../b.webp"}},
		{"mixed quoting styles", `'/tmp/a b.png' /tmp/c\ d.png "/tmp/e f.png" file:///tmp/g%20h.png`,
			[]string{"/tmp/a b.png", "/tmp/c d.png", "/tmp/e f.png", "/tmp/g h.png"}},
		{"Windows Terminal, quoted with spaces", `"C:\Users\Ada\Pictures\My Shot.png" C:\Users\Ada\b.jpg`,
			[]string{`C:\Users\Ada\Pictures\My Shot.png`, `C:\Users\Ada\b.jpg`}},
		{"Windows UNC path", `"\\server\share\shots\a.png"`, []string{`\\server\share\shots\a.png`}},
		{"Windows file URL", "file:///C:/Users/Ada/a%20b.png", []string{"C:/Users/Ada/a b.png"}},
		{"Windows forward slashes", "C:/Users/Ada/a.png", []string{"C:/Users/Ada/a.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.in, home)
			if got.Kind != Paths || !slices.Equal(got.Paths, tt.want) {
				t.Fatalf("Parse(%q) = %v %q, want paths %q", tt.in, got.Kind, got.Paths, tt.want)
			}
		})
	}
}

func TestParseText(t *testing.T) {
	// Paths not named like images count only when they name a file: these
	// name nothing, or a folder.
	folder := t.TempDir()
	gone := filepath.Join(folder, "gone")
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"white space", " \n\t "},
		{"prose", "what is in this picture?"},
		{"a path in a sentence", "look at /tmp/shot.png please"},
		{"a path then text on the next line", "/tmp/shot.png\nwhat is this?"},
		{"image paths with one other word", "/tmp/a.png /tmp/b.png and"},
		{"image paths joined by a word", "/tmp/a.png and /tmp/b.png"},
		{"image paths joined by words, with ~", "/tmp/a.png or maybe ~/b.png"},
		{"a path and a URL", "/tmp/a.png vs https://example.com/b.png"},
		{"a path to a missing non-image", gone + "/notes.txt"},
		{"image and missing non-image paths", "/tmp/a.png " + gone + "/notes.pdf"},
		{"no extension, missing", gone + "/shot"},
		{"only an extension, missing", gone + "/.png"},
		{"a directory", folder + "/"},
		{"a directory named like a file", folder},
		{"a bare file name", "shot.png"},
		{"a command line", "convert /tmp/a.png /tmp/b.png"},
		{"unterminated single quote", "'/tmp/a.png"},
		{"unterminated double quote", `"/tmp/a.png`},
		{"unterminated Windows quote", `"C:\a.png`},
		{"trailing backslash", `/tmp/a.png\`},
		{"empty quotes", `'' /tmp/a.png`},
		{"tilde without a home", "~/a.png"},
		{"another user's tilde", "~bob/a.png"},
		{"tilde alone", "~/"},
		{"file URL on another host", "file://nas/share/a.png"},
		{"file URL with a fragment", "file:///tmp/a#1.png"},
		{"file URL with a query", "file:///tmp/a.png?x=1"},
		{"file URL, bad percent-encoding", "file:///tmp/a%zz.png"},
		{"file URL with an encoded NUL", "file:///tmp/a%00.png"},
		{"file URL with an encoded escape", "file:///tmp/%1b%5b2J.png"},
		{"file URL, relative", "file:a.png"},
		{"control characters in a path", "/tmp/a\x1b[2J.png"},
		{"an ftp URL", "ftp://example.com/a.png"},
		{"a URL with text", "https://example.com/a.png is nice"},
		{"two URLs", "https://example.com/a.png https://example.com/b.png"},
		{"a URL without a host", "https:///a.png"},
		{"a data URI", "data:image/png;base64,iVBORw0KGgo="},
		{"Markdown image", "![x](/tmp/a.png)"},
		{"over the length bound", "/tmp/" + strings.Repeat("a", MaxLen) + ".png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := home
			if tt.name == "tilde without a home" {
				h = ""
			}
			if got := Parse(tt.in, h); got.Kind != Text || got.Paths != nil || got.URL != "" {
				t.Fatalf("Parse(%q) = %+v, want text", tt.in, got)
			}
		})
	}
}

func TestParseCountsPaths(t *testing.T) {
	many := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString("'/tmp/a b.png' ")
		}
		return b.String()
	}
	if got := Parse(many(MaxPaths), home); got.Kind != Paths || len(got.Paths) != MaxPaths {
		t.Fatalf("%d paths: got %v with %d paths", MaxPaths, got.Kind, len(got.Paths))
	}
	if got := Parse(many(MaxPaths+1), home); got.Kind != Text {
		t.Fatalf("%d paths: got %v, want text", MaxPaths+1, got.Kind)
	}
}

func TestParseURL(t *testing.T) {
	tests := []struct {
		in    string
		image bool
	}{
		{"https://example.com/cat.png", true},
		{"http://example.com/a/b/Photo.JPEG", true},
		{"https://example.com/cat.webp?size=large#top", true},
		{"https://images.example.com/photo-123?w=800&fm=jpg", true},
		{"https://cdn.example.com/i/123?format=PNG", true},
		{"HTTPS://EXAMPLE.COM/CAT.GIF", true},
		{"https://example.com/article", false},
		{"https://example.com/", false},
		{"https://example.com/cat.png.html", false},
		{"https://example.com/x?format=pdf", false},
	}
	for _, tt := range tests {
		got := Parse("  "+tt.in+"\n", home)
		if got.Kind != URL || got.URL != tt.in || got.ImageURL != tt.image {
			t.Errorf("Parse(%q) = %+v, want URL with ImageURL %v", tt.in, got, tt.image)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Text: "text", Paths: "paths", URL: "url"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), want)
		}
	}
}

// FuzzParse checks what the root relies on: Parse never panics, only
// returns paths without control characters that have an image extension
// or name a regular file, and a URL result is the trimmed paste itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"/tmp/a.png", `'/tmp/a b.png' /tmp/c\ d.jpg`, "file:///tmp/a%20b.png\r\n", `"C:\a b\c.png"`,
		"https://example.com/a.png", "~/a.gif", `"/tmp/\"x\".png"`, "text /tmp/a.png",
		"/etc/hostname", "'/etc/passwd' /etc/hosts", "file:///etc/os-release", "/api/v1/users", "// a comment",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Parse(s, home)
		switch r.Kind {
		case Paths:
			if len(r.Paths) == 0 || len(r.Paths) > MaxPaths {
				t.Fatalf("Parse(%q) returned %d paths", s, len(r.Paths))
			}
			for _, p := range r.Paths {
				if strings.ContainsFunc(p, isControl) {
					t.Fatalf("Parse(%q) returned path %q", s, p)
				}
				if st, err := os.Stat(p); !hasImageExt(p) && (err != nil || !st.Mode().IsRegular()) {
					t.Fatalf("Parse(%q) returned %q, which is not named like an image nor a file", s, p)
				}
			}
		case URL:
			if r.URL != strings.Trim(s, asciiSpace) {
				t.Fatalf("Parse(%q) returned URL %q", s, r.URL)
			}
		case Text:
			if r.Paths != nil || r.URL != "" {
				t.Fatalf("Parse(%q) returned text with %+v", s, r)
			}
		}
	})
}
