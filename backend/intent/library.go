package intent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// EnvLibrary names the environment variable that points at the ONNX Runtime
// shared library explicitly.
const EnvLibrary = "HERMES_ORT_LIB"

// InstallHint says how to install the ONNX Runtime library.
const InstallHint = "install it with `go tool task setup:ort` (or `bash build/setup/ort.sh`); if Hermes came from its package, `sudo apt-get install --reinstall hermes`"

// ModelHint says how to build the intent model.
const ModelHint = "build it with `go tool task model:intent`"

// LibraryNames are the file names looked for next to the binary and in the
// setup directory, in order.
func LibraryNames() []string {
	switch runtime.GOOS {
	case "windows":
		return []string{"onnxruntime.dll"}
	case "darwin":
		return []string{"libonnxruntime.dylib", "libonnxruntime.1.dylib"}
	default:
		return []string{"libonnxruntime.so.1", "libonnxruntime.so"}
	}
}

// DefaultSetupDir is where build/setup/ort.sh installs the library:
// $XDG_DATA_HOME/hermes/lib, or ~/.local/share/hermes/lib when XDG_DATA_HOME
// is unset.
func DefaultSetupDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "hermes", "lib"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find setup directory: %w", err)
	}
	return filepath.Join(home, ".local", "share", "hermes", "lib"), nil
}

// SystemDir is where the Debian package installs the library (and the intent
// model): /usr/lib/hermes.
const SystemDir = "/usr/lib/hermes"

// FindLibrary returns the path of the ONNX Runtime shared library. It checks,
// in order: env (the value of $HERMES_ORT_LIB), which must name an existing
// file when set; the directory of the binary, exeDir; the setup directory,
// setupDir; then more (the installed package's SystemDir). Empty directories
// are skipped. When nothing is found the error wraps ErrNoLibrary and says
// where it looked and how to install.
func FindLibrary(env, exeDir, setupDir string, more ...string) (string, error) {
	if env != "" {
		if isFile(env) {
			return env, nil
		}
		return "", fmt.Errorf("find onnxruntime library: %s=%s: %w: no such file; fix the variable or unset it and %s",
			EnvLibrary, env, ErrNoLibrary, InstallHint)
	}
	var looked []string
	for _, dir := range append([]string{exeDir, setupDir}, more...) {
		if dir == "" {
			continue
		}
		for _, name := range LibraryNames() {
			p := filepath.Join(dir, name)
			if isFile(p) {
				return p, nil
			}
			looked = append(looked, p)
		}
	}
	return "", fmt.Errorf("find onnxruntime library: %w (looked for $%s, %s); %s",
		ErrNoLibrary, EnvLibrary, strings.Join(looked, ", "), InstallHint)
}

// LocateLibrary runs FindLibrary with this process's $HERMES_ORT_LIB, the
// directory of its executable and DefaultSetupDir.
func LocateLibrary() (string, error) {
	exeDir := ""
	if exe, err := os.Executable(); err == nil {
		exeDir = filepath.Dir(exe)
	}
	setupDir, err := DefaultSetupDir()
	if err != nil {
		setupDir = ""
	}
	return FindLibrary(os.Getenv(EnvLibrary), exeDir, setupDir, SystemDir)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Errors that callers (doctor, the app banner) may tell apart with errors.Is.
var (
	// ErrNoLibrary: the ONNX Runtime shared library is missing or cannot be
	// loaded.
	ErrNoLibrary = errors.New("onnxruntime library not available")
	// ErrNoModel: a file of the model directory is missing.
	ErrNoModel = errors.New("intent model not found")
	// ErrBadModel: the model directory is there but unusable (truncated,
	// wrong shape, files that do not belong together).
	ErrBadModel = errors.New("intent model unusable")
	// ErrClosed: the classifier or runtime was closed.
	ErrClosed = errors.New("intent classifier closed")
)
