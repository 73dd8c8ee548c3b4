package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The sizes no code of the module outside tests may pass (issue 22): a
// type with more methods holds parts that want owners of their own, a
// longer function steps that want names.
const (
	maxTypeMethods = 60
	maxFuncLines   = 80
)

// TestNoTypeOrFunctionTooLarge counts the methods of every named type and
// the lines of every function in the module's non-test files, and lists
// every type over maxTypeMethods methods and every function over
// maxFuncLines lines. go test -v -run TestNoTypeOrFunctionTooLarge .
// prints the largest of each.
func TestNoTypeOrFunctionTooLarge(t *testing.T) {
	sizes := measureModule(t, ".")
	var offenders []string
	check := func(name string, size, limit int, what, advice string) {
		if size > limit {
			offenders = append(offenders, fmt.Sprintf("%s has %d %s (at most %d): %s", name, size, what, limit, advice))
		}
	}
	most, mostName := 0, ""
	for name, n := range sizes.methods {
		check(name, n, maxTypeMethods, "methods", "give a coherent part of its state and behaviour a type of its own that owns it")
		if n > most {
			most, mostName = n, name
		}
	}
	longest, longestName := 0, ""
	for name, n := range sizes.lines {
		check(name, n, maxFuncLines, "lines", "split it into steps with names that say what each does")
		if n > longest {
			longest, longestName = n, name
		}
	}
	t.Logf("most methods: %s, %d", mostName, most)
	t.Logf("longest function: %s, %d lines", longestName, longest)
	slices.Sort(offenders)
	for _, o := range offenders {
		t.Error(o)
	}
}

// moduleSizes are the method counts of the module's named types and the
// line counts of its functions, by name: "dir.Type" for a type,
// "dir.Func" or "dir.Type.Method" for a function, dir being the
// package's folder from the module's root ("ui", "ui/mdstream"; "." for
// the root package).
type moduleSizes struct {
	methods map[string]int
	lines   map[string]int
}

// measureModule parses every non-test Go file under root, skipping
// testdata, hidden folders and third_party (copies of other modules,
// kept as their authors wrote them).
func measureModule(t *testing.T, root string) moduleSizes {
	t.Helper()
	sizes := moduleSizes{methods: map[string]int{}, lines: map[string]int{}}
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "third_party") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := dir + "." + fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				typ := dir + "." + receiverType(fd.Recv.List[0].Type)
				sizes.methods[typ]++
				name = typ + "." + fd.Name.Name
			}
			if fd.Body != nil {
				sizes.lines[name] = max(sizes.lines[name], fset.Position(fd.End()).Line-fset.Position(fd.Pos()).Line+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 || len(sizes.methods) < 50 {
		t.Fatalf("found %d files and %d types with methods; the walk cannot have seen the module", files, len(sizes.methods))
	}
	return sizes
}

// receiverType is the name of a method's receiver type, without a pointer
// or type parameters.
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return fmt.Sprintf("%T", e)
		}
	}
}
