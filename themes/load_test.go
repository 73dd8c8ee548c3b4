package themes

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fileErrors(t *testing.T, errs []error) map[string]*FileError {
	t.Helper()
	out := map[string]*FileError{}
	for _, err := range errs {
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("not a *FileError: %v", err)
		}
		if _, seen := out[filepath.Base(fe.Path)]; !seen { // the first, in line order
			out[filepath.Base(fe.Path)] = fe
		}
	}
	return out
}

func TestLoadDirGoodThemes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"dusk.toml": `# a nord variant
name = "dusk"
base = "nord"
accent = "#FF8800"
info = 212
muted = "33"
surface = ""

[syntax]
keyword = "#abc"
`,
		"paper.toml":  "dark = false\nheading = \"#8a2be2\"\n",
		"a-dark.toml": "name = \"dark\"\nbase = \"dark\"\nborder_focus = \"#00ff00\"\n",
		"README.md":   "not a theme",
	})
	themes, errs := LoadDir(dir)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors: %v", errs)
	}
	if len(themes) != 3 || themes[0].Name != "dark" || themes[1].Name != "dusk" || themes[2].Name != "paper" {
		t.Fatalf("themes in file order: got %v", themes)
	}
	dusk := themes[1]
	nord := nordTheme()
	if dusk.Accent != "#ff8800" || dusk.Info != "212" || dusk.Muted != "33" || dusk.Surface != "" || dusk.Syntax.Keyword != "#aabbcc" {
		t.Errorf("overrides not applied: %+v", dusk)
	}
	if dusk.Text != nord.Text || dusk.Syntax.String != nord.Syntax.String || !dusk.Dark {
		t.Error("roles not set in the file must come from the base")
	}
	if dusk.Source != filepath.Join(dir, "dusk.toml") {
		t.Errorf("Source = %q", dusk.Source)
	}
	paper := themes[2]
	if paper.Name != "paper" || paper.Dark || paper.Text != lightTheme().Text || paper.Heading != "#8a2be2" {
		t.Errorf("a file without base and with dark = false inherits light, named after the file: %+v", paper)
	}

	set, errs := Load(dir)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if got := set.Resolve("auto", true); got.BorderFocus != "#00ff00" {
		t.Errorf("the user's dark must replace the built-in, got %s", got.BorderFocus)
	}
	names := set.Names()
	if names[0] != "dark" || names[len(names)-2] != "dusk" || names[len(names)-1] != "paper" {
		t.Errorf("Names() = %v", names)
	}
	// The user theme renders with its own syntax colour.
	out := render(t, dusk, false, "```go\nfunc f() {}\n```\n")
	if !strings.Contains(out, fgCode("#aabbcc")) {
		t.Errorf("user syntax colour not used: %q", out)
	}
}

func TestLoadDirBadFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad-colour.toml":   "name = \"bc\"\n\naccent = \"#12345\"\n",
		"bad-toml.toml":     "name = \"bt\"\naccent = \"#123456\n",
		"bad-base.toml":     "name = \"bb\"\nbase = \"solarized-dark\"\n",
		"bad-type.toml":     "name = \"ty\"\ninfo = true\n",
		"bad-range.toml":    "name = \"br\"\n[syntax]\n  number = 300\n",
		"bad-name.toml":     "name = \"my theme\"\n",
		"auto.toml":         "accent = 1\n",
		"syntax-str.toml":   "syntax = \"monokai\"\n",
		"typo.toml":         "name = \"typo\"\nacent = \"#ffffff\"\nmuted = \"#eeeeee\"\nsparkle = 1\n",
		"dup-1.toml":        "name = \"Twin\"\n",
		"dup-2.toml":        "\nname = \"twin\"\n",
		"dotted.toml":       "name = \"dotted\"\nsyntax.keyword = \"#zzzzzz\"\n",
		"bad-dark.toml":     "name = \"bd\"\ndark = \"yes\"\n",
		"name-not-str.toml": "name = 5\n",
	})
	themes, errs := LoadDir(dir)
	got := fileErrors(t, errs)

	want := []struct {
		file    string
		line    int
		skipped bool
		msg     string
	}{
		{"bad-colour.toml", 3, true, `accent: "#12345" is not a colour`},
		{"bad-toml.toml", 2, true, "not valid TOML"},
		{"bad-base.toml", 2, true, `base "solarized-dark" is not a built-in theme; use one of dark, light`},
		{"bad-type.toml", 2, true, "info must be a colour"},
		{"bad-range.toml", 3, true, `syntax.number: "300" is not a colour`},
		{"bad-name.toml", 1, true, "may only contain letters"},
		{"auto.toml", 0, true, "reserved"},
		{"syntax-str.toml", 1, true, "syntax must be a table"},
		{"typo.toml", 2, false, `unknown key "acent" ignored; did you mean "accent"?`},
		{"dup-2.toml", 2, true, `the name "twin" is already used by`},
		{"dotted.toml", 2, true, `syntax.keyword: "#zzzzzz" is not a colour`},
		{"bad-dark.toml", 2, true, "dark must be true or false"},
		{"name-not-str.toml", 1, true, "name must be a string"},
	}
	for _, w := range want {
		fe, ok := got[w.file]
		if !ok {
			t.Errorf("%s: no error reported", w.file)
			continue
		}
		if fe.Line != w.line || fe.Skipped != w.skipped || !strings.Contains(fe.Msg, w.msg) {
			t.Errorf("%s: got line %d skipped %v %q; want line %d skipped %v containing %q",
				w.file, fe.Line, fe.Skipped, fe.Msg, w.line, w.skipped, w.msg)
		}
		if !strings.Contains(fe.Error(), w.file) {
			t.Errorf("%s: Error() does not name the file: %s", w.file, fe.Error())
		}
		if w.line > 0 && !strings.Contains(fe.Error(), w.file+":"+strconv.Itoa(w.line)) {
			t.Errorf("%s: Error() lacks file:line: %s", w.file, fe.Error())
		}
	}
	// typo.toml also reports "sparkle" (no close match), and still loads.
	var sparkle bool
	for _, err := range errs {
		if strings.Contains(err.Error(), `unknown key "sparkle" ignored; it is not a colour role`) {
			sparkle = true
		}
	}
	if !sparkle {
		t.Error("unknown key without a near match not reported")
	}
	var names []string
	for _, th := range themes {
		names = append(names, th.Name)
	}
	if strings.Join(names, ",") != "Twin,typo" {
		t.Errorf("loaded themes = %v, want only the good ones", names)
	}
	if th := themes[1]; th.Muted != "#eeeeee" {
		t.Error("a theme with only unknown-key warnings must still apply its valid keys")
	}
	if got["bad-toml.toml"].Err == nil {
		t.Error("TOML error not wrapped")
	}
}

func TestLoadDirMissingAndUnreadable(t *testing.T) {
	themes, errs := LoadDir(filepath.Join(t.TempDir(), "nope"))
	if themes != nil || errs != nil {
		t.Fatalf("missing dir: %v %v", themes, errs)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs := LoadDir(file); len(errs) != 1 || !strings.Contains(errs[0].Error(), "theme directory") {
		t.Fatalf("not a directory: %v", errs)
	}
}
