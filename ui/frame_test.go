package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// An overlay's edges that cut a wide character clear it whole: no half
// character is left, and every line keeps its width.
func TestLayOverClipsWideCharactersWhole(t *testing.T) {
	got := layOver("漢字漢字漢字\n\x1b[31mred text here\x1b[m", 12, 2, "[x]\n[y]", 3, 0)
	lines := strings.Split(got, "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	if s := ansi.Strip(lines[0]); s != "漢 [x]字漢字" {
		t.Errorf("first line %q", s)
	}
	if s := ansi.Strip(lines[1]); s != "red[y]xt her" {
		t.Errorf("second line %q", s)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 12 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
	// The style of the text under the box's right edge goes on after it.
	if !containsSGR(lines[1][len(lines[1])/2:], "31") {
		t.Errorf("the red after the box is lost: %q", lines[1])
	}
}

func containsSGR(s, code string) bool {
	for i := 0; i+len(code)+2 < len(s); i++ {
		if s[i] == '\x1b' && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] != 'm' {
				j++
			}
			for _, p := range splitParams(s[i+2 : j]) {
				if p == code {
					return true
				}
			}
		}
	}
	return false
}

func splitParams(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ';' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(r)
	}
	return append(out, cur)
}
