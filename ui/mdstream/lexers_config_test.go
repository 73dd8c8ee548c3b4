package mdstream

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestGoLexersConfiguredAsTheirFiles holds the configurations parley's
// copy of chroma writes in Go for the lexers it makes while the package
// initialises (so a start parses no XML) to what their embedded files
// say, where upstream read them from the files: the same names, aliases,
// file patterns, MIME types and options, and no analyser left behind.
func TestGoLexersConfiguredAsTheirFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "third_party", "chroma", "lexers", "embedded")
	for _, c := range []struct {
		lexer chroma.Lexer
		file  string
		// renamed is the configuration upstream set over the file's
		// (SetConfig), nil where the file's is the lexer's.
		renamed *chroma.Config
	}{
		{lexers.HTML, "html.xml", nil},
		{lexers.CommonLisp, "common_lisp.xml", nil},
		{lexers.EmacsLisp, "emacslisp.xml", nil},
		{lexers.GoTextTemplate, "go_template.xml", &chroma.Config{Name: "Go Text Template", Aliases: []string{"go-text-template"}}},
		{lexers.GoHTMLTemplate, "go_template.xml", &chroma.Config{Name: "Go HTML Template", Aliases: []string{"go-html-template"}}},
	} {
		fromFile, err := chroma.NewXMLLexer(os.DirFS(dir), c.file)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		want := fromFile.Config()
		if want.Analyse != nil {
			t.Errorf("%s has an <analyse>, which MustNewXMLLexerConfigured does not read", c.file)
		}
		if c.renamed != nil {
			want = c.renamed
		}
		if got := c.lexer.Config(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the lexer's configuration is\n%+v\nwant (%s)\n%+v", want.Name, got, c.file, want)
		}
		if c.lexer.AnalyseText("<html><body></body></html>") != 0 {
			t.Errorf("%s: analyses text, which the lexer made from %s did not", want.Name, c.file)
		}
		if _, err := c.lexer.Tokenise(nil, "(a b)"); err != nil {
			t.Errorf("%s: reading its rules from %s: %v", want.Name, c.file, err)
		}
	}
}
