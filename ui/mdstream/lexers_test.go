package mdstream

import (
	"reflect"
	"testing"
)

// A renderer's lexer table costs nothing until the first code block: every
// renderer (one per width and theme) makes one, most never see code.
func TestLexerTableIsBuiltOnFirstUse(t *testing.T) {
	if allocs := testing.AllocsPerRun(20, func() { newLexerTable() }); allocs > 5 {
		t.Errorf("making a lexer table allocates %.0f times; the names of chroma's lexers must wait for the first code block", allocs)
	}

	table := newLexerTable()
	clone := table.clone()
	noCode := func() string { t.Fatal("the code was read for a language chroma knows by name"); return "" }
	for _, lang := range []string{"go", "Go", "PYTHON", "py"} {
		if name, rewritten := clone.resolve(lang, noCode); name != lang || rewritten {
			t.Errorf("resolve(%q) = %q, %v; want %q, false", lang, name, rewritten, lang)
		}
	}
	if reflect.ValueOf(table.known()).UnsafePointer() != reflect.ValueOf(clone.known()).UnsafePointer() {
		t.Error("a clone built its own names; it must share its table's")
	}
	if name, rewritten := table.resolve("", func() string { return "" }); name == "" || !rewritten {
		t.Errorf("resolve of an empty language = %q, %v; want a guessed lexer", name, rewritten)
	}
}
