package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBinaryLinksNoTestCode fails when the parley binary would link the
// testing package or net/http/httptest: test helpers (api/apitest) must
// stay out of what ships, and the built-in demo serves api/fake, which
// links neither.
func TestBinaryLinksNoTestCode(t *testing.T) {
	deps, out := listDeps(t, ".")
	if len(deps) < 100 {
		t.Fatalf("go list -deps . listed %d packages; the list cannot be right:\n%s", len(deps), out)
	}
	for _, p := range deps {
		switch {
		case p == "testing", strings.HasPrefix(p, "testing/"), p == "net/http/httptest":
			t.Errorf("the parley binary links %s; find the importer with `go list -deps -f '{{.ImportPath}}: {{.Imports}}' . | grep %s` and keep test code out of non-test files", p, p)
		case p == "parley/api/apitest":
			t.Errorf("the parley binary links the test helpers of %s; use parley/api/fake", p)
		}
	}
}

// TestEngineImportsNoUI fails when the chat engine would import a UI
// package: the engine decides, the UI presents, and `parley ask` runs the
// engine without a screen.
func TestEngineImportsNoUI(t *testing.T) {
	deps, out := listDeps(t, "./chat")
	if len(deps) < 20 || !slices.Contains(deps, "parley/conversation") {
		t.Fatalf("go list -deps ./chat listed %d packages without parley/conversation; the list cannot be right:\n%s", len(deps), out)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "charm.land/") || strings.HasPrefix(p, "github.com/charmbracelet/") || strings.HasPrefix(p, "parley/ui") {
			t.Errorf("the chat engine imports %s, a UI package; the engine reports outcomes as data and the UI presents them", p)
		}
	}
}

// TestBinaryLinksNoHTMLSanitizer fails when the parley binary would link
// bluemonday or the CSS and HTML packages under it again: they compiled
// over a hundred regular expressions while every start initialised, for
// stripping HTML tags that parley shows as written (third_party/glamour
// dropped them; PATCHED.md).
func TestBinaryLinksNoHTMLSanitizer(t *testing.T) {
	deps, out := listDeps(t, ".")
	if !slices.Contains(deps, "charm.land/glamour/v2/ansi") {
		t.Fatalf("go list -deps . lists no glamour; the list cannot be right:\n%s", out)
	}
	for _, p := range deps {
		for _, banned := range []string{"github.com/microcosm-cc/bluemonday", "github.com/gorilla/css", "github.com/aymerick/douceur", "golang.org/x/net/html"} {
			if p == banned || strings.HasPrefix(p, banned+"/") {
				t.Errorf("the parley binary links %s again; find the importer with `go list -deps -f '{{.ImportPath}}: {{.Imports}}' . | grep %s`", p, banned)
			}
		}
	}
}

// listDeps lists the packages pkg builds from (go list -deps), and the
// command's output for messages; it skips the test with -short.
func listDeps(t *testing.T, pkg string) (deps []string, out []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("lists packages with the go command; skipped with -short")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out)), out
}
