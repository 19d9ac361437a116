package intent

import (
	"fmt"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// Runtime is this process's ONNX Runtime environment.
//
// onnxruntime_go keeps the environment (the loaded shared library and the
// OrtEnv) in package-level variables, so a process can hold only one at a
// time. This package adds no global state of its own: the environment is
// started lazily, once, by the Runtime you construct, and released by its
// Close. Construct one Runtime per process (in the composition root) and
// share it between classifiers; a second Runtime that tries to start while
// the first is live fails with a clear error instead of corrupting the first.
type Runtime struct {
	libPath string

	once    sync.Once
	initErr error

	mu      sync.Mutex
	users   int  // open classifiers
	started bool // InitializeEnvironment succeeded
	closed  bool
}

// NewRuntime returns a Runtime that will load the library at libPath (see
// FindLibrary) when the first classifier opens. It does no I/O.
func NewRuntime(libPath string) *Runtime {
	return &Runtime{libPath: libPath}
}

// LibPath returns the library path the runtime loads.
func (r *Runtime) LibPath() string { return r.libPath }

// Start loads the library and creates the environment, once. Later calls
// return the first call's result.
func (r *Runtime) Start() error {
	r.once.Do(func() {
		r.initErr = r.start()
	})
	return r.initErr
}

func (r *Runtime) start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrClosed
	}
	if r.libPath == "" {
		return fmt.Errorf("load onnxruntime library: %w: no path given; %s", ErrNoLibrary, InstallHint)
	}
	if !isFile(r.libPath) {
		return fmt.Errorf("load onnxruntime library %s: %w: no such file; %s", r.libPath, ErrNoLibrary, InstallHint)
	}
	if ort.IsInitialized() {
		return fmt.Errorf("load onnxruntime library %s: the environment is already initialized in this process; share one intent.Runtime", r.libPath)
	}
	ort.SetSharedLibraryPath(r.libPath)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("load onnxruntime library %s: %w: %v; it must be ONNX Runtime 1.24.x, %s", r.libPath, ErrNoLibrary, err, InstallHint)
	}
	r.started = true
	return nil
}

// Version returns the ONNX Runtime version of a started runtime, or "".
func (r *Runtime) Version() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started || r.closed {
		return ""
	}
	return ort.GetVersion()
}

func (r *Runtime) acquire() error {
	if err := r.Start(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("load intent model: runtime: %w", ErrClosed)
	}
	r.users++
	return nil
}

func (r *Runtime) release() {
	r.mu.Lock()
	r.users--
	r.mu.Unlock()
}

// Close releases the environment. Every classifier opened on the runtime
// must be closed first. Closing twice is a no-op.
func (r *Runtime) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	if r.users > 0 {
		return fmt.Errorf("close onnxruntime: %d classifier(s) still open", r.users)
	}
	r.closed = true
	if !r.started {
		return nil
	}
	r.started = false
	if err := ort.DestroyEnvironment(); err != nil {
		return fmt.Errorf("close onnxruntime: %w", err)
	}
	return nil
}
