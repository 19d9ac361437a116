// Package storetest helps tests look at a database's files as bytes.
package storetest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Holds reports which of the database file and its -wal and -shm files hold s.
func Holds(t testing.TB, path, s string) []string {
	t.Helper()
	var out []string
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(s)) {
			out = append(out, "db"+suffix)
		}
	}
	return out
}

// DirHolds walks every file under dir (the database, its -wal and -shm, side
// files, sub-folders) and returns those whose bytes hold s, relative to dir.
func DirHolds(t testing.TB, dir, s string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(s)) {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
