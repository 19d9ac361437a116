package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEventsAreDeclared: every event reaches the page through send with a
// constant of events.go, so the UI's list of events and their payloads
// (bindings.gen.ts) is the whole list; an emit with a name of its own fails here.
func TestEventsAreDeclared(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "emit" && sel.Sel.Name != "emitEvent" {
				return true
			}
			// only a name handed on (a forwarding emit) or send's string(e)
			switch arg := ast.Unparen(call.Args[0]).(type) {
			case *ast.Ident:
			case *ast.CallExpr:
				if id, ok := arg.Fun.(*ast.Ident); !ok || id.Name != "string" {
					t.Errorf("%s: an event named in place; declare it in events.go and call send", fset.Position(call.Pos()))
				}
			default:
				t.Errorf("%s: an event named in place; declare it in events.go and call send", fset.Position(call.Pos()))
			}
			return true
		})
	}
	if got := evDelta.of("r1"); got != "chat:delta:r1" {
		t.Errorf("evDelta.of = %q", got)
	}
}
