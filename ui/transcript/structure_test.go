package transcript

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
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
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatalf("listing the package's files: %v", err)
	}
	declared := map[string]map[string]bool{}
	embeds := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Recv != nil {
					typ := typeName(n.Recv.List[0].Type)
					if declared[typ] == nil {
						declared[typ] = map[string]bool{}
					}
					declared[typ][n.Name.Name] = true
				}
				return false
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok {
					for _, fld := range st.Fields.List {
						if len(fld.Names) == 0 {
							embeds[n.Name.Name] = append(embeds[n.Name.Name], typeName(fld.Type))
						}
					}
				}
				return false
			}
			return true
		})
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
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	case *ast.Ident:
		return e.Name
	}
	return ""
}
