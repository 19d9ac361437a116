package main

import (
	"cmp"
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"
)

// tsWriter turns Go types into TypeScript, collecting the named types it meets
// so that each is declared once.
type tsWriter struct {
	api   *api
	names map[*types.TypeName]string // declared, by TS name
	taken map[string]*types.TypeName
	queue []*types.TypeName
	next  int  // the first of queue not declared yet
	input bool // types met now are parameters only
	err   error
}

// prefixes name another package's types in TS (kb.Collection -> KBCollection);
// package app's keep their own names.
var prefixes = map[string]string{"kb": "KB", "mcp": "Mcp"}

func (w *tsWriter) name(obj *types.TypeName) string {
	if n, ok := w.names[obj]; ok {
		return n
	}
	n := obj.Name()
	if obj.Pkg() != w.api.pkg {
		p := prefixes[obj.Pkg().Name()]
		if p == "" {
			p = strings.ToUpper(obj.Pkg().Name()[:1]) + obj.Pkg().Name()[1:]
		}
		if !strings.HasPrefix(n, p) {
			n = p + n
		}
	}
	switch other, ok := w.taken[n]; {
	case !ok || other == obj || w.err != nil:
	case other == nil:
		w.err = fmt.Errorf("%s would be %s in TypeScript, a name the generated file declares itself: rename it", obj, n)
	default:
		w.err = fmt.Errorf("%s and %s would both be %s in TypeScript: add a prefix", other, obj, n)
	}
	w.names[obj] = n
	w.taken[n] = obj
	w.queue = append(w.queue, obj)
	return n
}

// ts is the TypeScript for t.
func (w *tsWriter) ts(t types.Type) string {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return basic(t)
	case *types.Pointer:
		return w.ts(t.Elem()) + " | null"
	case *types.Slice:
		if b, ok := t.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return "string | null" // base64; nil is null
		}
		return list(w.ts(t.Elem())) + " | null" // a nil slice is null in JSON
	case *types.Array:
		return list(w.ts(t.Elem()))
	case *types.Map:
		return "Record<string, " + w.ts(t.Elem()) + "> | null" // a nil map is null in JSON
	case *types.Interface:
		return "unknown"
	case *types.Struct:
		var b strings.Builder
		b.WriteString("{ ")
		fields, _ := w.fields(t, false)
		for _, f := range fields {
			fmt.Fprintf(&b, "%s%s: %s; ", f.name, f.opt, f.ts)
		}
		return b.String() + "}"
	case *types.Named:
		return w.named(t)
	}
	return "unknown"
}

func (w *tsWriter) named(t *types.Named) string {
	obj := t.Obj()
	switch obj.Pkg().Path() + "." + obj.Name() {
	case "time.Time":
		return "string"
	case "time.Duration":
		return "number"
	case "encoding/json.RawMessage":
		return "unknown"
	}
	if marshals(t) {
		ts, ok := marshalers[obj.Pkg().Path()+"."+obj.Name()]
		if !ok && w.err == nil {
			w.err = fmt.Errorf("%s has its own MarshalJSON: say in bindgen's marshalers what TypeScript type it writes", obj)
		}
		return ts
	}
	if _, ok := t.Underlying().(*types.Struct); ok {
		return w.name(obj)
	}
	if _, ok := t.Underlying().(*types.Basic); ok && len(w.enumValues(obj)) > 0 {
		return w.name(obj)
	}
	return w.ts(t.Underlying())
}

// marshalers are the TS types of the Go types that write their own JSON.
var marshalers = map[string]string{
	"hermes/backend/workflow.Duration": "string", // "1m30s"
	"hermes/backend/mcp.Duration":      "string",
}

// marshals: t or *t has a MarshalJSON method.
func marshals(t types.Type) bool {
	for _, tt := range []types.Type{t, types.NewPointer(t)} {
		if obj, _, _ := types.LookupFieldOrMethod(tt, true, nil, "MarshalJSON"); obj != nil {
			if _, ok := obj.(*types.Func); ok {
				return true
			}
		}
	}
	return false
}

func list(elem string) string {
	if strings.Contains(elem, "|") { // (A | null)[]; harmless around an object type's own |
		return "(" + elem + ")[]"
	}
	return elem + "[]"
}

func basic(b *types.Basic) string {
	switch {
	case b.Info()&types.IsString != 0:
		return "string"
	case b.Info()&types.IsBoolean != 0:
		return "boolean"
	case b.Info()&types.IsNumeric != 0:
		return "number"
	}
	return "unknown"
}

// enumValues are the constants of a named basic type, in their order in the
// source (file by file, by name: a token.Pos alone orders files as they happened
// to be loaded): a TS union of them.
func (w *tsWriter) enumValues(obj *types.TypeName) []*types.Const {
	var out []*types.Const
	scope := obj.Pkg().Scope()
	for _, n := range scope.Names() {
		if c, ok := scope.Lookup(n).(*types.Const); ok && types.Identical(c.Type(), obj.Type()) {
			out = append(out, c)
		}
	}
	fset := w.api.docs.fset
	slices.SortFunc(out, func(a, b *types.Const) int {
		pa, pb := fset.Position(a.Pos()), fset.Position(b.Pos())
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	return out
}

type tsField struct {
	name, opt, ts, doc string
}

// fields are a struct's JSON fields. An embedded struct's fields are its own
// here, as encoding/json flattens them, unless the outer struct has a field of
// the same name (which then wins, as in encoding/json); with extend, an embedded
// named struct none of whose fields the outer one shadows is a base instead
// (interface X extends Base).
func (w *tsWriter) fields(s *types.Struct, extend bool) (own []tsField, bases []string) {
	type embed struct {
		t      types.Type
		fields []tsField
	}
	var embeds []embed
	for i := range s.NumFields() {
		f := s.Field(i)
		tag := reflect.StructTag(s.Tag(i)).Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if tag == "-" || !f.Exported() && !f.Embedded() { // "-," names a field "-"
			continue
		}
		if f.Embedded() && name == "" {
			if inner, ok := embeddedStruct(f.Type()); ok {
				flat, _ := w.fields(inner, false)
				if _, ptr := f.Type().(*types.Pointer); ptr {
					for i := range flat { // a nil *T leaves all of them out
						flat[i].opt, flat[i].ts = "?", strings.TrimSuffix(flat[i].ts, " | null")
					}
				}
				embeds = append(embeds, embed{f.Type(), flat})
				continue
			}
		}
		if name == "" {
			name = f.Name()
		}
		field := tsField{name: name, ts: w.ts(f.Type()), doc: w.api.docs.of(f.Pos())}
		if strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
			field.opt = "?" // and a nil list, map or pointer is left out, never null
			field.ts = strings.TrimSuffix(field.ts, " | null")
		}
		if strings.Contains(opts, "string") {
			field.ts = "string"
		}
		own = append(own, field)
	}
	has := func(name string) bool {
		return slices.ContainsFunc(own, func(o tsField) bool { return o.name == name })
	}
	seen := map[string]bool{}
	for _, e := range embeds {
		for _, f := range e.fields {
			if seen[f.name] && !has(f.name) && w.err == nil {
				// encoding/json's rules of depth and tags would decide, which
				// bindgen does not follow (no type has needed them yet)
				w.err = fmt.Errorf("two structs embedded in one have a field %s: name it in the outer struct", f.name)
			}
			seen[f.name] = true
		}
	}
	for _, e := range embeds {
		_, named := e.t.(*types.Named)
		if extend && named && !slices.ContainsFunc(e.fields, func(f tsField) bool { return has(f.name) }) {
			bases = append(bases, w.ts(e.t))
			continue
		}
		w.ts(e.t) // declared too, as other code may name it
		for _, f := range e.fields {
			if !has(f.name) {
				own = append(own, f)
			}
		}
	}
	return own, bases
}

func embeddedStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}
