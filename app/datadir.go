package app

import (
	"context"
	"io"

	"hermes/backend/config"
	"hermes/backend/jsonl"
)

// DataDir resolves the data directory: the flag, else $HERMES_DATA_DIR, else the
// OS user data dir + "/hermes".
func DataDir(flag string, getenv func(string) string) (string, error) {
	return config.DataDir(flag, getenv)
}

// EnsureDataDir creates the data directory if needed and returns the path of its
// database file.
func EnsureDataDir(dir string) (string, error) { return config.EnsureDataDir(dir) }

// DatabaseCheck is what `hermes doctor` reports of the open database.
type DatabaseCheck struct {
	Schema    int    // the schema version
	Integrity string // "ok", or what SQLite's integrity check found
}

// CheckDatabase runs SQLite's integrity check and reads the schema version.
func (c *Core) CheckDatabase(ctx context.Context) (DatabaseCheck, error) {
	res, err := c.db.Integrity(ctx)
	v, _ := c.db.SchemaVersion(ctx)
	return DatabaseCheck{Schema: v, Integrity: res}, err // the error names the check and the file
}

// LineError is a bad line of a JSON Lines file, by its 1-based number.
type LineError = jsonl.LineError

// JSONLines calls fn with each non-blank line of r and its number, and stops at
// fn's first error. A line over maxLine bytes, or not UTF-8, is a *LineError.
func JSONLines(r io.Reader, maxLine int, fn func(n int, line []byte) error) error {
	return jsonl.Lines(r, maxLine, fn)
}
