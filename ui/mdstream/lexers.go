package mdstream

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// maxSlowLookups bounds the languages a renderer looks up the slow way
// (by file pattern); a message naming more distinct unknown languages gets
// the guess from the code for the rest. Real replies name a few.
const maxSlowLookups = 32

// plaintextLexer is what chroma uses when nothing matches (its fallback
// lexer has the same rules).
const plaintextLexer = "plaintext"

// lexerTable resolves code block languages the way glamour's chroma call
// does (chroma's lexers.Get, then lexers.Analyse of the code, then the
// fallback), remembering the slow lookups.
type lexerTable struct {
	// known returns the names and aliases chroma finds by map lookup. It
	// is built on the first code block, not with the renderer (every
	// renderer would pay for it, most never see code), and shared,
	// read-only, by the table and its clones.
	known func() map[string]bool
	slow  map[string]string // slow lookups done: language -> lexer name ("" for none)
	empty string            // the lexer guessed for empty code ("" until asked)
}

func newLexerTable() *lexerTable {
	return &lexerTable{known: sync.OnceValue(knownLexers), slow: map[string]string{}}
}

// knownLexers is the set of names and aliases of chroma's lexers, as they
// are and in lower case. It asks lexers.Names, not the registry's Lexers
// field: parley's chroma reads its lexers at the first lookup, and the
// field holds them only after one (third_party/chroma/PATCHED.md).
func knownLexers() map[string]bool {
	known := map[string]bool{}
	for _, name := range lexers.Names(true) {
		known[name] = true
		known[strings.ToLower(name)] = true
	}
	return known
}

// clone shares the names and copies the remembered lookups.
func (t *lexerTable) clone() *lexerTable {
	slow := make(map[string]string, len(t.slow))
	for k, v := range t.slow {
		slow[k] = v
	}
	return &lexerTable{known: t.known, slow: slow, empty: t.empty}
}

// resolve returns the language to give glamour for a code block written
// with lang, and whether it differs from lang. code is called only when
// the lexer must be guessed from the code.
func (t *lexerTable) resolve(lang string, code func() string) (string, bool) {
	if lang != "" {
		if known := t.known(); known[lang] || known[strings.ToLower(lang)] {
			return lang, false
		}
		name, ok := t.slow[lang]
		if !ok && len(t.slow) < maxSlowLookups {
			name = lexerName(lexers.Get(lang))
			t.slow[lang] = name
		}
		if name != "" {
			return name, true
		}
	}
	c := code()
	if c == "" && t.empty != "" {
		return t.empty, true // empty blocks are common (hostile ones by thousands)
	}
	name := lexerName(lexers.Analyse(c))
	if name == "" {
		name = plaintextLexer
	}
	if c == "" {
		t.empty = name
	}
	return name, true
}

// lexerName is a name chroma finds l by at once, without spaces (glamour
// takes the language up to the first space).
func lexerName(l chroma.Lexer) string {
	if l == nil {
		return ""
	}
	c := l.Config()
	if !strings.Contains(c.Name, " ") {
		return c.Name
	}
	for _, a := range c.Aliases {
		if !strings.Contains(a, " ") {
			return a
		}
	}
	return ""
}
