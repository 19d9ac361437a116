// Command bindgen writes the window's and web mode's side of the boundary from
// package app's Go types (docs/architecture.md, "The boundary"):
//
//   - frontend/src/lib/bindings.gen.ts: a TypeScript interface for every type a
//     bound method of App takes or returns, the event names with their payloads,
//     and createApi, one typed function per bound method;
//   - app/webmethods_gen.go: web mode's table of the same methods, each decoding
//     its JSON arguments into its own parameter types and calling the method
//     (no reflection by name).
//
// `go generate ./app` runs it; `-check` fails when either file is stale (CI).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/packages"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	check := flag.Bool("check", false, "fail when a generated file is stale instead of writing it")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "bindgen:", err)
		os.Exit(1)
	}
}

const stub = "package app\n\nfunc (a *App) webMethods() map[string]webMethod { return nil }\n\nfunc (a *App) boundServices() []any { return nil }\n"

const (
	tsFile = "frontend/src/lib/bindings.gen.ts"
	goFile = "app/webmethods_gen.go"
)

func run(root string, check bool) error {
	abs, err := filepath.Abs(filepath.Join(root, goFile))
	if err != nil {
		return err
	}
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedFiles,
		Dir:        root,
		BuildFlags: []string{"-tags=sqlite_fts5"},
		// the table is read as a stub: the one it replaces may no longer compile
		// (a method whose parameters changed is what makes it stale)
		Overlay: map[string][]byte{abs: []byte(stub)},
	}
	pkgs, err := packages.Load(cfg, "hermes/app")
	if err != nil {
		return fmt.Errorf("load hermes/app: %w", err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		return fmt.Errorf("load hermes/app: the package has errors")
	}
	api, err := readAPI(pkgs[0])
	if err != nil {
		return err
	}
	ts, err := writeTS(api)
	if err != nil {
		return err
	}
	if api.docs.err != nil {
		return api.docs.err
	}
	gosrc, err := format.Source(writeGo(api))
	if err != nil {
		return fmt.Errorf("format %s: %w", goFile, err)
	}
	return output(root, check, map[string][]byte{tsFile: ts, goFile: gosrc})
}

// output writes each file, or with check says which differ from what is there.
func output(root string, check bool, files map[string][]byte) error {
	var stale []string
	for _, name := range []string{tsFile, goFile} {
		path := filepath.Join(root, name)
		if check {
			old, _ := os.ReadFile(path)
			if !bytes.Equal(old, files[name]) {
				stale = append(stale, name)
			}
			continue
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%v are stale: a Go type or bound method changed; run `go generate ./app` and commit the result", stale)
	}
	return nil
}
