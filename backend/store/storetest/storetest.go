// Package storetest helps tests look at a database's files as bytes.
package storetest

import (
	"bytes"
	"os"
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
