package intent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindLibrary(t *testing.T) {
	root := t.TempDir()
	touch := func(parts ...string) string {
		p := filepath.Join(append([]string{root}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("lib"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	envLib := touch("env", "custom.so")
	exeSo1 := touch("exe1", "libonnxruntime.so.1")
	exeSo := touch("exe2", "libonnxruntime.so")
	setup := touch("setup", "libonnxruntime.so.1")
	both := touch("exe3", "libonnxruntime.so.1")
	touch("exe3", "libonnxruntime.so")
	if err := os.MkdirAll(filepath.Join(root, "exe4", "libonnxruntime.so.1"), 0o755); err != nil { // a directory, not a file
		t.Fatal(err)
	}
	empty := filepath.Join(root, "empty")

	for _, tc := range []struct {
		name                  string
		env, exeDir, setupDir string
		want                  string
		errIs                 error
		errHas                []string
	}{
		{"env wins", envLib, filepath.Dir(exeSo1), filepath.Dir(setup), envLib, nil, nil},
		{"env set but missing", filepath.Join(root, "nope.so"), filepath.Dir(exeSo1), filepath.Dir(setup), "", ErrNoLibrary, []string{"HERMES_ORT_LIB=", "nope.so", "task setup:ort"}},
		{"next to binary, .so.1", "", filepath.Dir(exeSo1), filepath.Dir(setup), exeSo1, nil, nil},
		{"next to binary, .so", "", filepath.Dir(exeSo), filepath.Dir(setup), exeSo, nil, nil},
		{".so.1 before .so", "", filepath.Dir(both), "", both, nil, nil},
		{"setup dir", "", empty, filepath.Dir(setup), setup, nil, nil},
		{"directory is not a library", "", filepath.Join(root, "exe4"), filepath.Dir(setup), setup, nil, nil},
		{"nothing", "", empty, filepath.Join(root, "nosetup"), "", ErrNoLibrary, []string{"looked for $HERMES_ORT_LIB", filepath.Join(empty, "libonnxruntime.so.1"), "nosetup", "build/setup/ort.sh"}},
		{"no dirs", "", "", "", "", ErrNoLibrary, []string{"task setup:ort"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindLibrary(tc.env, tc.exeDir, tc.setupDir)
			if tc.errIs != nil {
				if !errors.Is(err, tc.errIs) {
					t.Fatalf("FindLibrary = %q, %v; want %v", got, err, tc.errIs)
				}
				for _, w := range tc.errHas {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %q", err, w)
					}
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("FindLibrary = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestDefaultSetupDir(t *testing.T) {
	t.Run("XDG_DATA_HOME", func(t *testing.T) {
		t.Setenv("XDG_DATA_HOME", "/data")
		if d, err := DefaultSetupDir(); err != nil || d != "/data/hermes/lib" {
			t.Fatalf("DefaultSetupDir = %q, %v", d, err)
		}
	})
	t.Run("home", func(t *testing.T) {
		t.Setenv("XDG_DATA_HOME", "")
		t.Setenv("HOME", "/home/someone")
		if d, err := DefaultSetupDir(); err != nil || d != "/home/someone/.local/share/hermes/lib" {
			t.Fatalf("DefaultSetupDir = %q, %v", d, err)
		}
	})
}
