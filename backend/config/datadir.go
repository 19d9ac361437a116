// Package config finds the data directory and keeps the user's settings.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// DataDirEnv overrides the default data directory.
const DataDirEnv = "HERMES_DATA_DIR"

// DataDir resolves the data directory: the --data-dir flag, then $HERMES_DATA_DIR,
// then the OS user data dir + "/hermes". It does not create it.
func DataDir(flag string, getenv func(string) string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	if env := getenv(DataDirEnv); env != "" {
		return filepath.Abs(env)
	}
	base, err := userDataDir(getenv)
	if err != nil {
		return "", fmt.Errorf("find data dir: %w (set %s or pass --data-dir)", err, DataDirEnv)
	}
	return filepath.Join(base, "hermes"), nil
}

// userDataDir is the OS's per-user data directory.
func userDataDir(getenv func(string) string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return d, nil
		}
	case "darwin":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support"), nil
	}
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".local", "share"), nil
}

// EnsureDataDir creates the data directory (private to the user) and returns the database path in it.
func EnsureDataDir(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create data dir %s: %w", dir, err)
	}
	return filepath.Join(dir, "hermes.db"), nil
}
