package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A component (an overlay, a pane, a picker) implements uictx.Component
// itself, in its own package, and hands the root its own result types
// (issue 22, item 6). A type of the root package with the contract's
// methods is an adapter between a component and the root, or a component
// that belongs in a package of its own: this test finds every one in the
// package's source.
func TestNoAdapterBetweenAComponentAndTheRoot(t *testing.T) {
	methods := rootMethods(t)
	var adapters []string
	for typ, ms := range methods {
		if !implementsComponent(ms) || rootPresenters()[typ] != "" {
			continue
		}
		adapters = append(adapters, typ+" ("+ms["Update"].pos+")")
	}
	sort.Strings(adapters)
	if len(adapters) > 0 {
		t.Fatalf("the root package declares types that implement uictx.Component: %s; "+
			"make the component implement the contract in its own package and act on its own result in handleResult",
			strings.Join(adapters, ", "))
	}
}

// rootPresenters are the components of the root package itself, each
// with the reason it is one. Nothing else may be.
func rootPresenters() map[string]string {
	return map[string]string{
		// The notices pane shows the root's own notices, worded with the
		// root's key names (noticesHow, keyOf: the hint line and the
		// notices under the composer use them too); it translates nothing,
		// and implements the side pane's contract (ui/sidepane) as any
		// pane does.
		"noticesPane": "the root's own notices",
	}
}

// The check above finds what it looks for: the component the root keeps,
// the notices pane, is seen as one (so the list above is not empty by
// mistake), and so is a type declared like the image pane's adapter was.
func TestTheContractCheckSeesThePanes(t *testing.T) {
	methods := rootMethods(t)
	for typ := range rootPresenters() {
		if !implementsComponent(methods[typ]) {
			t.Errorf("%s is not seen as a component: the check reads the methods wrong, or it is no component any more (drop it from rootPresenters)", typ)
		}
	}
	adapter := map[string]*method{
		"Update": {params: 1, results: 2}, "SetSize": {params: 2}, "Draw": {results: 3}, "Hints": {results: 1},
		"name": {results: 1}, "show": {params: 2},
	}
	if !implementsComponent(adapter) {
		t.Error("a type with Update, SetSize, Draw and Hints (and a pane's name and show) is not seen as a component")
	}
}

// method is one method as declared: where, and how many parameters and
// results it has.
type method struct {
	pos             string
	params, results int
}

// rootMethods lists the methods of each type declared in the root
// package's source (not its tests), by the receiver's type name.
func rootMethods(t *testing.T) map[string]map[string]*method {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]map[string]*method{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			typ := receiverName(fn.Recv.List[0].Type)
			if out[typ] == nil {
				out[typ] = map[string]*method{}
			}
			out[typ][fn.Name.Name] = &method{
				pos:     fset.Position(fn.Pos()).String(),
				params:  fieldCount(fn.Type.Params),
				results: fieldCount(fn.Type.Results),
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no methods found: the test does not run in the package's folder")
	}
	return out
}

// implementsComponent reports whether ms has the methods of
// uictx.Component, each with its number of parameters and results.
func implementsComponent(ms map[string]*method) bool {
	want := map[string][2]int{"Update": {1, 2}, "SetSize": {2, 0}, "Draw": {0, 3}, "Hints": {0, 1}}
	for name, shape := range want {
		m := ms[name]
		if m == nil || m.params != shape[0] || m.results != shape[1] {
			return false
		}
	}
	return true
}

// fieldCount counts parameters or results: "w, h int" is two.
func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		n += max(len(f.Names), 1)
	}
	return n
}
