package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// load type-checks src as a package of its own, as run loads package app.
func load(t *testing.T, src string) *packages.Package {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/app\n\ngo 1.26\n", "app.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax |
		packages.NeedTypesInfo | packages.NeedFiles, Dir: dir}, ".")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("load: %v", err)
	}
	return pkgs[0]
}

const services = `package app

//bindgen:bound
type App struct{ Notes *NotesService }

func (a *App) UIReady() error { return nil }

//bindgen:bound
type NotesService struct{}

func (n *NotesService) ListNotes() ([]string, error) { return nil, nil }
func (n *NotesService) DeleteNote(id string) error  { return nil }
func (n *NotesService) helper()                     {}

func gates() map[string]int { return map[string]int{"DeleteNote": 1} }
`

// Every bound type's exported methods are read, each with its service, in one
// namespace of names; a gate may name a domain service's method.
func TestReadAPIBindsEveryService(t *testing.T) {
	a, err := readAPI(load(t, services))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.services, ",") != "App,NotesService" {
		t.Fatalf("services = %v", a.services)
	}
	var got []string
	for _, m := range a.methods {
		got = append(got, m.service+"."+m.name+map[bool]string{true: " (gated)"}[m.gated])
	}
	if want := "NotesService.DeleteNote (gated),NotesService.ListNotes,App.UIReady"; strings.Join(got, ",") != want {
		t.Fatalf("methods = %v, want %s", got, want)
	}
}

// Two services with a method of one name, or a bound type App cannot reach,
// are refused with what to change.
func TestReadAPIRefusesWhatWebModeCannotCall(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"a name on two services": {strings.Replace(services, "func (a *App) UIReady()", "func (a *App) ListNotes()", 1),
			"NotesService.ListNotes: App has a bound method of that name too"},
		"no field on App": {strings.Replace(services, "type App struct{ Notes *NotesService }", "type App struct{}", 1),
			"App has a field Notes *NotesService"},
		"a gate on no method": {strings.Replace(services, `"DeleteNote": 1`, `"RemoveNote": 1`, 1),
			"gates() names methods no bound service has: [RemoveNote]"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := readAPI(load(t, tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("readAPI = %v, want an error with %q", err, tc.want)
			}
		})
	}
}
