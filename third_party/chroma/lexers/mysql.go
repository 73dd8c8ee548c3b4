package lexers

import (
	"regexp"
)

// mysqlAnalyser makes the MySQL lexer's analyser (parley: called by
// registerEmbedded, where upstream set it in an init function and compiled
// its patterns while the package initialised).
func mysqlAnalyser() func(text string) float32 {
	backtick := regexp.MustCompile("`[a-zA-Z_]\\w*`")
	bracket := regexp.MustCompile(`\[[a-zA-Z_]\w*\]`)
	return func(text string) float32 {
		return analyseMySQL(text, backtick, bracket)
	}
}

// analyseMySQL is the MySQL lexer's analyser.
func analyseMySQL(text string, mysqlAnalyserNameBetweenBacktickRe, mysqlAnalyserNameBetweenBracketRe *regexp.Regexp) float32 {
	nameBetweenBacktickCount := len(mysqlAnalyserNameBetweenBacktickRe.FindAllString(text, -1))
	nameBetweenBracketCount := len(mysqlAnalyserNameBetweenBracketRe.FindAllString(text, -1))

	var result float32

	// Same logic as above in the TSQL analysis.
	dialectNameCount := nameBetweenBacktickCount + nameBetweenBracketCount
	if dialectNameCount >= 1 && nameBetweenBacktickCount >= (2*nameBetweenBracketCount) {
		// Found at least twice as many `name` as [name].
		result += 0.5
	} else if nameBetweenBacktickCount > nameBetweenBracketCount {
		result += 0.2
	} else if nameBetweenBacktickCount > 0 {
		result += 0.1
	}

	return result
}
