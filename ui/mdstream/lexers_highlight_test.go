package mdstream

import (
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"parley/themes"
)

// highlightDoc holds a code block for each way chroma finds a lexer: by
// name (go), by alias (py; lisp and elisp, whose lexers written in Go
// replace embedded ones of the same name, so the order of registration
// decides), by file name only (a .yml extension, an exact file name, a .h
// and a .bzl that several lexers' patterns match, so their order decides),
// and not at all, where the code decides (a shell script, a DNS zone, MySQL
// and Zed, whose analysers chroma sets up apart from their XML, and plain
// text).
const highlightDoc = "# Code\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\", 42) }\n```\n\n" +
	"```py\ndef twice(x):\n    return x * 2  # doubled\n```\n\n" +
	"```lisp\n(defun twice (x) (car (list (* 2 x))))\n```\n\n" +
	"```elisp\n(defun hello () (interactive) (message \"hi\"))\n```\n\n" +
	"```yml\nkey: [1, \"two\"]\nnested:\n  on: true\n```\n\n" +
	"```CMakeLists.txt\ncmake_minimum_required(VERSION 3.10)\nproject(demo C)\n```\n\n" +
	"```h\n#include <stdio.h>\nint answer(void);\n```\n\n" +
	"```bzl\nload(\"//rules:defs.bzl\", \"thing\")\nthing(name = \"x\")\n```\n\n" +
	"```klingon\n#!/bin/bash\necho \"$HOME\" | grep -c x\n```\n\n" +
	"```zonefile-ish\n@ IN SOA ns.example.com. admin.example.com. (1 2 3 4 5)\n```\n\n" +
	"```dialect\nSELECT `id`, `name` FROM `users` WHERE `id` = 1;\n```\n\n" +
	"```perms\ndefinition user {}\ndefinition doc {\n  relation reader: user\n  permission read = reader\n}\n```\n\n" +
	"```unknown\nQapla' batlh Daqawlu'taH\n```\n"

// TestHighlightingIsUnchanged renders code through the chat's renderer with
// a parley theme's chroma style and with glamour's dark style (which
// registers chroma's "charm" style its own way). The golden files were
// written by chroma v2.14.0 as released, which built its lexers and styles
// while the program started; parley's copy builds them on first use
// (third_party/chroma/PATCHED.md), and must highlight byte for byte the
// same.
func TestHighlightingIsUnchanged(t *testing.T) {
	styles := map[string]ansi.StyleConfig{
		"parley-dark":  themes.Builtins()[0].Glamour(false),
		"glamour-dark": testStyles()["dark"],
	}
	for name, style := range styles {
		t.Run(name, func(t *testing.T) {
			r, err := NewRenderer(72, style)
			if err != nil {
				t.Fatal(err)
			}
			r.SetBudget(0, nil) // a loaded machine must not turn the render plain
			out := strings.Join(r.Render(highlightDoc), "\n")
			if !strings.Contains(out, "\x1b[38;") {
				t.Fatalf("nothing was highlighted: %q", out)
			}
			golden.RequireEqual(t, out)
		})
	}
}
