package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// docReader finds the doc comment of a declaration by its position: package
// app's files are parsed already, any other package's are parsed when first
// asked (their types come from export data, which keeps positions, not comments).
type docReader struct {
	fset  *token.FileSet
	files map[string]*ast.File
	byPos map[string]map[int]string // file -> line -> doc of what is declared there
	// directives are the //bindgen: lines of a function's doc, by file and line
	directives map[string]map[int][]string
	// err is the first file it could not read: its docs would be missing, and
	// the output would differ from a machine that could (-check would flap)
	err error
}

func newDocReader(fset *token.FileSet, parsed []*ast.File) *docReader {
	d := &docReader{fset: fset, files: map[string]*ast.File{}, byPos: map[string]map[int]string{},
		directives: map[string]map[int][]string{}}
	for _, f := range parsed {
		d.files[fset.Position(f.Pos()).Filename] = f
	}
	return d
}

// of is the doc comment (or the trailing comment) of what is declared at pos.
func (d *docReader) of(pos token.Pos) string {
	p := d.fset.Position(pos)
	if p.Filename == "" {
		return ""
	}
	lines, ok := d.byPos[p.Filename]
	if !ok {
		lines = d.index(p.Filename)
		d.byPos[p.Filename] = lines
	}
	return strings.TrimSpace(lines[p.Line])
}

func (d *docReader) index(name string) map[int]string {
	f := d.files[name]
	fset := d.fset
	if f == nil {
		fset = token.NewFileSet()
		parsed, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			if d.err == nil {
				d.err = fmt.Errorf("read the doc comments of %s: %w", name, err)
			}
			return nil
		}
		f = parsed
	}
	lines := map[int]string{}
	put := func(at token.Pos, docs ...*ast.CommentGroup) {
		for _, g := range docs {
			if g != nil {
				lines[fset.Position(at).Line] = g.Text()
				return
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			for _, s := range n.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					put(s.Name.Pos(), s.Doc, s.Comment, single(n))
				case *ast.ValueSpec:
					for _, id := range s.Names {
						put(id.Pos(), s.Doc, s.Comment, single(n))
					}
				}
			}
		case *ast.FuncDecl:
			put(n.Name.Pos(), n.Doc)
			d.directive(fset, n)
		case *ast.Field:
			for _, id := range n.Names {
				put(id.Pos(), n.Doc, n.Comment)
			}
			if len(n.Names) == 0 {
				put(n.Type.Pos(), n.Doc, n.Comment)
			}
		}
		return true
	})
	return lines
}

// directive keeps a function's //bindgen: lines.
func (d *docReader) directive(fset *token.FileSet, fn *ast.FuncDecl) {
	if fn.Doc == nil {
		return
	}
	p := fset.Position(fn.Name.Pos())
	for _, c := range fn.Doc.List {
		if rest, ok := strings.CutPrefix(c.Text, "//bindgen:"); ok {
			if d.directives[p.Filename] == nil {
				d.directives[p.Filename] = map[int][]string{}
			}
			d.directives[p.Filename][p.Line] = append(d.directives[p.Filename][p.Line], rest)
		}
	}
}

// directivesOf are the //bindgen: lines of the function declared at pos.
func (d *docReader) directivesOf(pos token.Pos) []string {
	d.of(pos) // indexes its file
	p := d.fset.Position(pos)
	return d.directives[p.Filename][p.Line]
}

// single is a declaration's own doc when it declares one thing.
func single(g *ast.GenDecl) *ast.CommentGroup {
	if len(g.Specs) == 1 {
		return g.Doc
	}
	return nil
}
