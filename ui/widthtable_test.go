package ui

import (
	"testing"

	"github.com/mattn/go-runewidth"
)

// TestWidthTableIsTheUnicodeTables holds go-runewidth's table of widths,
// which parley's copy packs two bits a rune (third_party/go-runewidth/
// PATCHED.md), to the interval tables it is built from, for every rune
// and both conditions it holds (East Asian widths or not): the first
// frame's borders, the transcript's wrapping and every cell count read it.
func TestWidthTableIsTheUnicodeTables(t *testing.T) {
	runewidth.BuildWidthTable()
	for _, eastAsian := range []bool{false, true} {
		c := &runewidth.Condition{EastAsianWidth: eastAsian, StrictEmojiNeutral: true}
		wrong := 0
		for r := rune(0); r <= 0x10FFFF; r++ {
			got, want := c.RuneWidth(r), runewidth.WidthFromTables(r, eastAsian)
			if got != want {
				if wrong++; wrong <= 10 {
					t.Errorf("East Asian %v: %U is %d cells wide in the table, %d in the Unicode tables", eastAsian, r, got, want)
				}
			}
		}
		if wrong > 10 {
			t.Errorf("East Asian %v: %d runes in all have the wrong width in the table", eastAsian, wrong)
		}
	}
}
