package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// method is one bound method of a bound service as both sides see it.
type method struct {
	service string // the bound type it is a method of (App, KnowledgeService, ...)
	name    string
	doc     string
	params  []*types.Var
	result  types.Type // nil: none
	err     bool       // its last result is an error
	gated   bool       // web mode asks a one-time code for it (gates in app/webcode.go)
	// asJSON are the string parameters that carry a value as JSON text, by
	// name, with its type (//bindgen:json NAME TYPE): the client sends the text.
	asJSON map[string]types.Type
}

// event is one event the Go side emits: its name (a prefix when perRequest: the
// request's id follows) and its payload's type.
type event struct {
	constName  string
	name       string
	payload    types.Type
	perRequest bool
	doc        string
}

// api is what the generators write from.
type api struct {
	pkg      *types.Package
	services []string // the bound types: App first, then the others in source order
	methods  []method
	events   []event
	// sent are the types web mode sends outside any method or event (a
	// refusal's body): their declarations say //bindgen:send.
	sent []types.Type
	docs *docReader
}

func readAPI(p *packages.Package) (*api, error) {
	a := &api{pkg: p.Types, docs: newDocReader(p.Fset, p.Syntax)}
	a.services = boundTypes(p)
	if len(a.services) == 0 || a.services[0] != "App" {
		return nil, fmt.Errorf("package app has no type App marked //bindgen:bound")
	}
	gated := gateNames(p.Syntax)
	owner := map[string]string{} // method name -> its service: names are one namespace
	for _, svc := range a.services {
		if err := a.readService(p.Types, svc, owner, gated); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(a.methods, func(x, y method) int { return strings.Compare(x.name, y.name) })
	for _, m := range a.methods {
		if m.gated && slices.ContainsFunc(m.params, func(v *types.Var) bool { return v.Name() == "code" }) {
			return nil, fmt.Errorf("%s.%s is gated: the TS client adds a parameter code, so none of its own may have that name", m.service, m.name)
		}
	}
	if len(gated) > 0 {
		return nil, fmt.Errorf("gates() names methods no bound service has: %v", slices.Sorted(maps.Keys(gated)))
	}
	a.events = readEvents(p.Types, a.docs)
	a.sent = sentTypes(p)
	return a, nil
}

// readService adds the exported methods of the bound type svc, each marked
// gated when gates() names it (and taken out of gated); owner holds which
// service has each name so far.
func (a *api) readService(pkg *types.Package, svc string, owner map[string]string, gated map[string]bool) error {
	obj := pkg.Scope().Lookup(svc)
	app := pkg.Scope().Lookup("App").Type()
	if svc != "App" && (!strings.HasSuffix(svc, "Service") || !hasField(app, fieldOf(svc), types.NewPointer(obj.Type()))) {
		return fmt.Errorf("%s is bound, so its name ends in Service and App has a field %s *%s (web mode's table reaches it there)", svc, fieldOf(svc), svc)
	}
	mset := types.NewMethodSet(types.NewPointer(obj.Type()))
	for i := range mset.Len() {
		f := mset.At(i).Obj().(*types.Func)
		if !f.Exported() {
			continue
		}
		if other, ok := owner[f.Name()]; ok {
			return fmt.Errorf("%s.%s: %s has a bound method of that name too (web mode and the client call methods by name alone)", svc, f.Name(), other)
		}
		owner[f.Name()] = svc
		m, err := a.readMethod(f)
		if err != nil {
			return err
		}
		m.service, m.gated = svc, gated[m.name]
		delete(gated, m.name)
		a.methods = append(a.methods, m)
	}
	return nil
}

// hasField: the struct type t has a field name of type of.
func hasField(t types.Type, name string, of types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if f.Name() == name && types.Identical(f.Type(), of) {
			return true
		}
	}
	return false
}

// boundTypes are the names of the package's types whose declaration's doc
// says //bindgen:bound (the services the window binds and web mode calls),
// App first, the others in source order.
func boundTypes(p *packages.Package) []string {
	var out []string
	for _, t := range markedTypes(p, "//bindgen:bound") {
		name := t.(*types.Named).Obj().Name()
		if name == "App" {
			out = append([]string{name}, out...)
			continue
		}
		out = append(out, name)
	}
	return out
}

// sentTypes are the package's types whose declaration's doc says
// //bindgen:send, in source order.
func sentTypes(p *packages.Package) []types.Type { return markedTypes(p, "//bindgen:send") }

// markedTypes are the package's types whose declaration's doc holds the line
// mark, in source order.
func markedTypes(p *packages.Package, mark string) []types.Type {
	var out []types.Type
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE || len(g.Specs) != 1 || g.Doc == nil {
				continue
			}
			for _, c := range g.Doc.List {
				if c.Text == mark {
					out = append(out, p.TypesInfo.Defs[g.Specs[0].(*ast.TypeSpec).Name].Type())
				}
			}
		}
	}
	return out
}

func (a *api) readMethod(f *types.Func) (method, error) {
	sig := f.Type().(*types.Signature)
	m := method{name: f.Name(), doc: a.docs.of(f.Pos()), asJSON: map[string]types.Type{}}
	for _, d := range a.docs.directivesOf(f.Pos()) {
		var param, typ string
		if _, err := fmt.Sscanf(d, "json %s %s", &param, &typ); err != nil {
			return m, fmt.Errorf("%s: //bindgen:%s: want json PARAM TYPE", f.Name(), d)
		}
		t, ok := a.pkg.Scope().Lookup(typ).(*types.TypeName)
		if !ok {
			return m, fmt.Errorf("%s: //bindgen:json names %s, no type of package app", f.Name(), typ)
		}
		if !slices.ContainsFunc(slices.Collect(sig.Params().Variables()), func(v *types.Var) bool {
			return v.Name() == param && types.Identical(v.Type(), types.Typ[types.String])
		}) {
			return m, fmt.Errorf("%s: //bindgen:json names %s, which is not a string parameter of it", f.Name(), param)
		}
		m.asJSON[param] = t.Type()
	}
	for v := range sig.Params().Variables() {
		if !plain(v.Type()) {
			return m, fmt.Errorf("%s's parameter %s (%s) cannot come from JSON: give it a plain type", f.Name(), v.Name(), v.Type())
		}
		m.params = append(m.params, v)
	}
	res := sig.Results()
	if sig.Variadic() || res.Len() > 2 {
		return m, fmt.Errorf("%s: a bound method returns at most a value and an error, and takes no ...", f.Name())
	}
	if res.Len() > 0 && isError(res.At(res.Len()-1).Type()) {
		m.err = true
		res = types.NewTuple(slices.Collect(res.Variables())[:res.Len()-1]...)
	}
	switch res.Len() {
	case 0:
	case 1:
		m.result = res.At(0).Type()
	default:
		return m, fmt.Errorf("%s: a bound method returns at most one value and an error", f.Name())
	}
	return m, nil
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// plain: a type JSON fills in full (no interface, function, channel or pointer,
// at any depth of a list or map), as web mode and Wails decode arguments.
func plain(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Interface, *types.Signature, *types.Chan, *types.Pointer:
		return false
	case *types.Slice:
		return plain(u.Elem())
	case *types.Array:
		return plain(u.Elem())
	case *types.Map:
		return plain(u.Key()) && plain(u.Elem())
	}
	return true
}

// gateNames are the keys of the map gates() returns in package app.
func gateNames(files []*ast.File) map[string]bool {
	names := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "gates" || fn.Recv != nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if kv, ok := n.(*ast.KeyValueExpr); ok {
					if lit, ok := kv.Key.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						names[s] = true
					}
				}
				return true
			})
		}
	}
	return names
}

// readEvents finds the package's constants of type event[T] (app/events.go).
func readEvents(pkg *types.Package, docs *docReader) []event {
	var out []event
	for _, name := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(name).(*types.Const)
		if !ok {
			continue
		}
		named, ok := c.Type().(*types.Named)
		if !ok || named.Obj().Name() != "event" || named.TypeArgs().Len() != 1 {
			continue
		}
		v := constant(c)
		out = append(out, event{constName: name, name: v, payload: named.TypeArgs().At(0),
			perRequest: strings.HasSuffix(v, ":"), doc: docs.of(c.Pos())})
	}
	slices.SortFunc(out, func(x, y event) int { return strings.Compare(x.name, y.name) })
	return out
}

func constant(c *types.Const) string {
	s, _ := strconv.Unquote(c.Val().ExactString())
	return s
}
