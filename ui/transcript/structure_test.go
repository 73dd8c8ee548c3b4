package transcript

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// maxMethods is the most methods a type of the package may have (issue 22):
// past it a type does more than one thing, as Transcript did with 131 before
// it became a list and item renderers.
const maxMethods = 60

// TestNoTypeOverMaxMethods counts the methods of every type of the package,
// those it declares and those its embedded fields of the package promote,
// and fails for a type with more than maxMethods.
func TestNoTypeOverMaxMethods(t *testing.T) {
	counts := methodCounts(t, ".")
	if len(counts["Transcript"]) == 0 {
		t.Fatalf("the counter finds no methods of Transcript: %v", counts)
	}
	for typ, ms := range counts {
		if len(ms) > maxMethods {
			t.Errorf("%s has %d methods, more than %d: split it", typ, len(ms), maxMethods)
		}
	}
}

// methodCounts returns the method set of each type declared in the
// non-test files of dir (pointer receivers included).
func methodCounts(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	notTest := func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
	pkgs, err := parser.ParseDir(fset, dir, notTest, 0)
	if err != nil {
		t.Fatalf("parsing the package: %v", err)
	}
	declared := map[string]map[string]bool{}
	embeds := map[string][]string{}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						continue
					}
					name := typeName(d.Recv.List[0].Type)
					if declared[name] == nil {
						declared[name] = map[string]bool{}
					}
					declared[name][d.Name.Name] = true
				case *ast.GenDecl:
					for _, s := range d.Specs {
						ts, ok := s.(*ast.TypeSpec)
						if !ok {
							continue
						}
						st, ok := ts.Type.(*ast.StructType)
						if !ok {
							continue
						}
						for _, fld := range st.Fields.List {
							if len(fld.Names) == 0 {
								embeds[ts.Name.Name] = append(embeds[ts.Name.Name], typeName(fld.Type))
							}
						}
					}
				}
			}
		}
	}
	var set func(typ string, seen map[string]bool) map[string]bool
	set = func(typ string, seen map[string]bool) map[string]bool {
		out := map[string]bool{}
		if seen[typ] {
			return out
		}
		seen[typ] = true
		for m := range declared[typ] {
			out[m] = true
		}
		for _, e := range embeds[typ] {
			for m := range set(e, seen) {
				out[m] = true
			}
		}
		return out
	}
	counts := map[string]map[string]bool{}
	for typ := range declared {
		counts[typ] = set(typ, map[string]bool{})
	}
	for typ := range embeds {
		counts[typ] = set(typ, map[string]bool{})
	}
	return counts
}

// typeName is the name of a receiver's or an embedded field's type.
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.SelectorExpr:
		return e.X.(*ast.Ident).Name + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}
