package intent

import (
	"bytes"
	"io/fs"
	"time"
)

// BuiltIn is the model built into the executable: the files of FS, and those
// of InPlace read where they lie (a []byte the linker placed, passed to ONNX
// Runtime as it is). fs.ReadFile of an embed.FS copies a file into the heap
// first: 1.8 MB more at the peak of every process that classifies a message.
type BuiltIn struct {
	FS      fs.FS
	InPlace map[string][]byte
}

// Open opens name: from InPlace when it is there, else from FS.
func (b BuiltIn) Open(name string) (fs.File, error) {
	if data, ok := b.InPlace[name]; ok {
		return &inPlaceFile{Reader: bytes.NewReader(data), name: name, size: int64(len(data))}, nil
	}
	return b.FS.Open(name)
}

// inPlaceOf is readModel's way to the bytes without a copy.
func inPlaceOf(files fs.FS, name string) ([]byte, bool) {
	b, ok := files.(BuiltIn)
	if !ok {
		return nil, false
	}
	data, ok := b.InPlace[name]
	return data, ok
}

// inPlaceFile is an InPlace file opened through fs.FS.
type inPlaceFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *inPlaceFile) Stat() (fs.FileInfo, error) { return inPlaceInfo{f.name, f.size}, nil }
func (f *inPlaceFile) Close() error               { return nil }

type inPlaceInfo struct {
	name string
	size int64
}

func (i inPlaceInfo) Name() string       { return i.name }
func (i inPlaceInfo) Size() int64        { return i.size }
func (i inPlaceInfo) Mode() fs.FileMode  { return 0o444 }
func (i inPlaceInfo) ModTime() time.Time { return time.Time{} }
func (i inPlaceInfo) IsDir() bool        { return false }
func (i inPlaceInfo) Sys() any           { return nil }
