package mdstream

import (
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// warmSample holds one of everything goldmark's patterns and tables are
// made for: links goldmark turns into links (http, www and an e-mail
// address), a task list, a table's delimiters, raw HTML, HTML blocks (a
// script's among them) and a reference label that needs case folding.
const warmSample = "See https://example.com/a and www.example.org <b>now</b> <me@example.com>.\n\n" +
	"- [x] done\n\n| a | b | c | d |\n|:--|--:|:-:|---|\n| 1 | 2 | 3 | 4 |\n\n" +
	"<div>\nblock\n</div>\n\n<!-- note -->\n\n<script>\nx\n</script>\n\n" +
	"[Ünï][] and [ÜNÏ]\n\n[ünï]: https://example.com/u\n"

// Warm does the work parley's copies of chroma and goldmark leave to the
// first use, rather than to every start of the program: it reads chroma's
// lexers (17–25 ms and 2 MB here) and has goldmark compile its patterns
// (the link patterns alone, 0.25 MB). Called once the chat is up, it keeps
// that cost out of the frames of the first reply that has a code block, a
// link or a table.
func Warm() {
	lexers.Names(false)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	md.Parser().Parse(text.NewReader([]byte(warmSample)))
}
