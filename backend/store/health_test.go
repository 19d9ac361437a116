package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/mattn/go-sqlite3"
)

func TestExplainDataErrors(t *testing.T) {
	db := &DB{Path: "/data/hermes/hermes.db"}
	cases := []struct {
		name string
		err  error
		kind error
	}{
		{"SQLITE_FULL", fmt.Errorf("append: %w", sqlite3.Error{Code: sqlite3.ErrFull}), ErrDiskFull},
		{"an I/O error for ENOSPC", sqlite3.Error{Code: sqlite3.ErrIoErr, SystemErrno: syscall.ENOSPC}, ErrDiskFull},
		{"ENOSPC from a file", &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, ErrDiskFull},
		{"SQLITE_READONLY", errors.Join(errors.New("store reply"), sqlite3.Error{Code: sqlite3.ErrReadonly}), ErrReadOnly},
		{"EROFS", sqlite3.Error{Code: sqlite3.ErrIoErr, SystemErrno: syscall.EROFS}, ErrReadOnly},
		{"something else", errors.New("boom"), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := db.Explain(tc.err)
			var de *DataError
			if tc.kind == nil {
				if errors.As(got, &de) {
					t.Fatalf("%v became %v", tc.err, got)
				}
				return
			}
			if !errors.As(got, &de) || !errors.Is(got, tc.kind) || de.Path != db.Path || !errors.Is(got, tc.err) {
				t.Fatalf("got %v", got)
			}
		})
	}
}

func TestCheckFileSeesTheDataDirGo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hermes.db")
	db, err := Open(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CheckFile(); err != nil {
		t.Fatalf("a file just opened: %v", err)
	}
	if err := os.Rename(file, file+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, nil, 0o600); err != nil { // another file in its place
		t.Fatal(err)
	}
	if err := db.CheckFile(); !errors.Is(err, ErrGone) {
		t.Fatalf("a replaced file: %v", err)
	}
	os.RemoveAll(dir)
	if err := db.CheckFile(); !errors.Is(err, ErrGone) {
		t.Fatalf("a deleted folder: %v", err)
	}
}
