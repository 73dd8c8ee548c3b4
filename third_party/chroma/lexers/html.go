package lexers

import (
	"github.com/alecthomas/chroma/v2"
)

// HTML lexer.
var HTML = chroma.MustNewXMLLexerConfigured(embedded, "embedded/html.xml", &chroma.Config{
	Name:            "HTML",
	Aliases:         []string{"html"},
	Filenames:       []string{"*.html", "*.htm", "*.xhtml", "*.xslt"},
	MimeTypes:       []string{"text/html", "application/xhtml+xml"},
	CaseInsensitive: true,
	DotAll:          true,
	NotMultiline:    true,
})
