package themes

import (
	"strings"
	"testing"

	"parley/internal/tomlnest"
)

// FuzzThemeParse feeds arbitrary bytes to the theme loader as a theme
// file, after the same nesting check LoadFile makes. It must not panic;
// every problem is a *FileError on a line of the file; a theme that loads
// has a valid name.
func FuzzThemeParse(f *testing.F) {
	for _, s := range []string{
		"name = \"dusk\"\nbase = \"nord\"\naccent = \"#ff8800\"\n[syntax]\nkeyword = \"#c678dd\"\n",
		"dark = false\nerror = 196\nmuted = \"244\"\n",
		"accent = \"#fff\"\nacent = \"#000\"\n",
		"syntax.keyword = \"#123456\"\n",
		"name = \"bad name!\"\n",
		"[syntax\n",
		"accent = [[[1]]]\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text := string(data)
		if tomlnest.Check(text, tomlnest.MaxDepth) != nil {
			return // LoadFile refuses it before decoding
		}
		th, errs := parseTheme("fuzz.toml", text)
		lines := strings.Count(text, "\n") + 1
		skipped := false
		for _, fe := range errs {
			if fe.Line < 0 || fe.Line > lines {
				t.Fatalf("line %d in a file of %d lines: %v", fe.Line, lines, fe)
			}
			if fe.Msg == "" {
				t.Fatalf("an empty message: %+v", fe)
			}
			skipped = skipped || fe.Skipped
		}
		if !skipped {
			if err := validName(th.Name); err != nil {
				t.Fatalf("loaded with an invalid name: %v", err)
			}
		}
	})
}
