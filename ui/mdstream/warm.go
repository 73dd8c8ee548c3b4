package mdstream

import "github.com/alecthomas/chroma/v2/lexers"

// WarmLexers reads chroma's lexers, which parley's copy of chroma reads at
// the first lookup rather than while the program starts (17–25 ms and
// 2 MB here): called once the chat is up, it keeps that cost out of the
// frame that shows the first code block.
func WarmLexers() {
	lexers.Names(false)
}
