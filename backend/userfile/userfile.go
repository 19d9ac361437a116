// Package userfile reads the files a user writes by hand or hands Hermes to
// import (mcp.json, Claude Desktop's config, tools.yaml, workflows.yaml,
// agents.yaml) within a size limit: a file far larger than any real one is one
// clear refusal, not memory spent on it.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// MaxSize is the largest such file read (1 MiB: a config of thousands of entries).
const MaxSize = 1 << 20

// ErrTooBig is a file over the limit.
var ErrTooBig = errors.New("file too large")

// TooBigError names the file over the limit.
type TooBigError struct {
	Path string
	Max  int64
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s is larger than %d KiB, more than any such file needs; check that it is the right file", filepath.Base(e.Path), e.Max>>10)
}

func (e *TooBigError) Is(target error) bool { return target == ErrTooBig }

// Read reads the file at path if it is at most max bytes (MaxSize when max is
// 0). A missing file is an error that is os.ErrNotExist.
func Read(path string, max int64) ([]byte, error) {
	if max <= 0 {
		max = MaxSize
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &TooBigError{Path: path, Max: max}
	}
	return data, nil
}
