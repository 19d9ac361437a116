package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mattn/go-sqlite3"
)

// ErrDiskFull means the disk holding the database has no room for a write.
var ErrDiskFull = errors.New("the disk holding the data dir is full")

// ErrGone means the database file was deleted, moved or replaced while
// Hermes had it open: writes would go to a file nobody will open again.
var ErrGone = errors.New("the data dir was deleted or moved while Hermes ran")

// IsDiskFull reports whether err is a write refused for lack of space
// (SQLite's SQLITE_FULL, or ENOSPC from the file system).
func IsDiskFull(err error) bool {
	var se sqlite3.Error
	return errors.Is(err, ErrDiskFull) || errors.Is(err, syscall.ENOSPC) ||
		errors.As(err, &se) && (se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC)
}

// IsReadOnly reports whether err is a write refused because the file, its
// folder or its disk cannot be written (SQLITE_READONLY, EROFS, permissions).
func IsReadOnly(err error) bool {
	var se sqlite3.Error
	return errors.Is(err, ErrReadOnly) || errors.Is(err, syscall.EROFS) || errors.Is(err, os.ErrPermission) ||
		errors.As(err, &se) && (se.Code == sqlite3.ErrReadonly || se.Code == sqlite3.ErrPerm || se.SystemErrno == syscall.EROFS)
}

// DataError is a write the data dir refused, in words that say what to do:
// Kind is ErrDiskFull, ErrReadOnly or ErrGone; Path the database file.
type DataError struct {
	Kind  error
	Path  string
	Cause error
}

func (e *DataError) Error() string {
	dir := filepath.Dir(e.Path)
	switch e.Kind {
	case ErrDiskFull:
		return fmt.Sprintf("%v (%s): free some space on that disk, then try again (%v)", e.Kind, dir, e.Cause)
	case ErrReadOnly:
		return fmt.Sprintf("%v (%s): Hermes cannot write there any more; make it writable (a read-only mount, chattr +i, permissions) or restart Hermes with another --data-dir (%v)", e.Kind, dir, e.Cause)
	}
	return fmt.Sprintf("%v: %s is not there any more; restart Hermes to start a new data dir there, or put the folder back from a backup", e.Kind, e.Path)
}

func (e *DataError) Is(target error) bool { return target == e.Kind }

func (e *DataError) Unwrap() error { return e.Cause }

// Explain is a write's error as a DataError when the data dir refused it (no
// space, read-only); err unchanged otherwise.
func (db *DB) Explain(err error) error {
	var de *DataError
	switch {
	case err == nil, errors.As(err, &de):
		return err
	case IsDiskFull(err):
		return &DataError{Kind: ErrDiskFull, Path: db.Path, Cause: err}
	case IsReadOnly(err):
		return &DataError{Kind: ErrReadOnly, Path: db.Path, Cause: err}
	}
	return err
}

// CheckFile reports ErrGone (a DataError) when the database file is no longer
// the one Hermes opened (deleted with its folder, moved, replaced): a cheap
// stat, made before work that writes.
func (db *DB) CheckFile() error {
	if db.opened == nil {
		return nil
	}
	fi, err := os.Stat(db.Path)
	if err == nil && os.SameFile(fi, db.opened) {
		return nil
	}
	return &DataError{Kind: ErrGone, Path: db.Path, Cause: err}
}
