package termsafe

import "strings"

// lineBreaks shows the two controls Sanitize keeps as the escapes people
// know from code, so a one-line field stays one line.
var lineBreaks = strings.NewReplacer("\n", `\n`, "\t", `\t`)

// Line sanitises a value shown in a one-line field: a model id, a provider
// name, a title in a list or a status bar. It is Sanitize with a newline
// shown as the two characters `\n` and a tab as `\t`, so a value from a
// gateway or a config file cannot start a line of its own (forging the
// next row of `parley models`) or push columns apart. The result contains
// no control character at all.
func Line(s string) string {
	out := Sanitize(s)
	if !strings.ContainsAny(out, "\n\t") {
		return out
	}
	return lineBreaks.Replace(out)
}
