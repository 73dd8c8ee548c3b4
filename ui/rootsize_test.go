package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Limits the structure holds: the root model stays small, the parts it
// delegates to own their state, and no function outside tests grows past
// what one reading takes in. What can change the model is counted whole:
// its methods, and every function or function literal that takes a
// *Model (a table of handlers over the model is the model's behaviour
// too). The action table is data (perform.go), so it adds nothing.
const (
	maxRootFields  = 25
	maxRootChanges = 60
	maxFuncLines   = 80
)

// TestRootModelStaysSmall counts the fields of Model, what can change it,
// and the lines of every function of the module outside tests. go test -v
// -run TestRootModelStaysSmall ./ui/ prints the figures.
func TestRootModelStaysSmall(t *testing.T) {
	fields, methods, funcs := rootModelSize(t)
	t.Logf("ui.Model: %d fields, %d methods, %d functions and literals taking *Model", fields, methods, funcs)
	if fields > maxRootFields || methods+funcs > maxRootChanges {
		t.Errorf("ui.Model has %d fields and %d methods and functions that can change it; keep it at most %d and %d: give the new state and behaviour an owner of its own",
			fields, methods+funcs, maxRootFields, maxRootChanges)
	}
	longest, where := 0, ""
	for _, f := range moduleFuncs(t) {
		if f.lines > longest {
			longest, where = f.lines, f.name
		}
		if f.lines > maxFuncLines {
			t.Errorf("%s is %d lines long; split it (at most %d)", f.name, f.lines, maxFuncLines)
		}
	}
	t.Logf("longest function outside tests: %s, %d lines", where, longest)
}

// rootModelSize parses the package's own files (not tests): Model's
// fields, its methods, and the functions and literals with a *Model
// parameter.
func rootModelSize(t *testing.T) (fields, methods, funcs int) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Model" {
						for _, fl := range ts.Type.(*ast.StructType).Fields.List {
							fields += max(len(fl.Names), 1)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && receiverName(d.Recv.List[0].Type) == "Model" {
					methods++
				} else if takesModel(d.Type) {
					funcs++
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if fl, ok := n.(*ast.FuncLit); ok && takesModel(fl.Type) {
				funcs++
			}
			return true
		})
	}
	if fields == 0 || methods == 0 {
		t.Fatalf("found no Model in the package (%d fields, %d methods)", fields, methods)
	}
	return fields, methods, funcs
}

// takesModel reports whether a function type has a *Model parameter.
func takesModel(ft *ast.FuncType) bool {
	for _, p := range ft.Params.List {
		if s, ok := p.Type.(*ast.StarExpr); ok && receiverName(s) == "Model" {
			return true
		}
	}
	return false
}

func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

type funcSize struct {
	name  string
	lines int
}

// moduleFuncs lists every function of the module's non-test files with
// its length in lines, from its func keyword to its closing brace
// (third_party holds copies of other modules, kept as written).
func moduleFuncs(t *testing.T) []funcSize {
	t.Helper()
	fset := token.NewFileSet()
	var out []funcSize
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "testdata" || d.Name() == "third_party") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				out = append(out, funcSize{name: path + ": " + fd.Name.Name, lines: lines})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("found only %d functions in the module", len(out))
	}
	return out
}
