package ask_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestNoStepWritesAnotherStepsValue holds issue 26's "admission as
// values": a request's call and the values its steps return (asker,
// turn, found) are written by no one once made, the stream's accounting
// only by the stream step's own methods, an admission only by the
// wrapper chain's end, and a Handler only by New. It reads the package's
// own non-test code, type-checked, and fails on any assignment or
// increment of a field outside those places.
func TestNoStepWritesAnotherStepsValue(t *testing.T) {
	// writers names, per struct type, the functions that may write its
	// fields ("" for none); "*T" means T's methods.
	writers := map[string]string{
		"call": "", "asker": "", "turn": "", "found": "",
		"streamer":  "*streamer",
		"admission": "admitted",
		"Handler":   "New",
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo, Dir: "."}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the package: %v %v", err, pkgs)
	}
	p := pkgs[0]
	owner := map[*types.Var]string{} // each field of a listed type → the type
	for name := range writers {
		obj := p.Types.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("no type %s in the package", name)
		}
		st := obj.Type().Underlying().(*types.Struct)
		for i := range st.NumFields() {
			owner[st.Field(i)] = name
		}
	}
	for _, file := range p.Syntax {
		if strings.HasSuffix(p.Fset.Position(file.Pos()).Filename, "_test.go") {
			continue
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			in := fn.Name.Name
			if fn.Recv != nil {
				in = "*" + strings.TrimPrefix(types.ExprString(fn.Recv.List[0].Type), "*")
			}
			check := func(lhs ast.Expr) {
				sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
				if !ok {
					return
				}
				s := p.TypesInfo.Selections[sel]
				if s == nil || s.Kind() != types.FieldVal {
					return
				}
				typ, listed := owner[s.Obj().(*types.Var)]
				if listed && writers[typ] != in {
					t.Errorf("%s: %s writes %s.%s", p.Fset.Position(sel.Pos()), fn.Name.Name, typ, sel.Sel.Name)
				}
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, l := range n.Lhs {
						check(l)
					}
				case *ast.IncDecStmt:
					check(n.X)
				}
				return true
			})
		}
	}
}
