package llm

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// ErrNotGGUF means a file given for import is not a GGUF model file.
var ErrNotGGUF = errors.New("not a GGUF model file")

// NotGGUFError is a file that does not start like a GGUF model file (the magic
// "GGUF"): File is its name, Head its first bytes. It is ErrNotGGUF.
type NotGGUFError struct {
	File string
	Head []byte
}

func (e *NotGGUFError) Error() string {
	return fmt.Sprintf("%s: %v (a GGUF file starts with \"GGUF\"; this one starts with %q); give the model's .gguf file", e.File, ErrNotGGUF, e.Head)
}

func (e *NotGGUFError) Is(target error) bool { return target == ErrNotGGUF }

// MinImportVersion is the oldest Ollama that creates a model from a blob (the
// files field of /api/create).
const MinImportVersion = "0.5.5"

// CheckGGUF refuses a file that is not a GGUF model Ollama can load, before
// anything is sent or copied: the magic "GGUF", a version Hermes reads (2 or
// 3), then its structure (checkGGUF: the header within the file, and every
// tensor's data).
func CheckGGUF(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	var head [8]byte
	n, _ := io.ReadFull(r, head[:])
	if n < 8 || string(head[:4]) != "GGUF" {
		return &NotGGUFError{File: filepath.Base(path), Head: head[:n]}
	}
	if v := binary.LittleEndian.Uint32(head[4:]); v < 2 || v > 3 {
		return &GGUFVersionError{File: filepath.Base(path), Version: v}
	}
	return checkGGUF(path, info.Size(), r)
}

// GGUFVersionError is a GGUF file of a version Hermes does not read (it reads
// 2 and 3, as Ollama's reader and llama.cpp do). It is ErrNotGGUF: the file is
// refused before anything is sent.
type GGUFVersionError struct {
	File    string
	Version uint32
}

func (e *GGUFVersionError) Error() string {
	return fmt.Sprintf("%s: %v: GGUF version %d is not one Hermes knows (2 and 3); update Hermes, or use a .gguf file of version 3", e.File, ErrNotGGUF, e.Version)
}

func (e *GGUFVersionError) Is(target error) bool { return target == ErrNotGGUF }

// ImportGGUF makes a model named name from a GGUF file on this computer,
// without a network: the file is checked, hashed and uploaded to Ollama as a
// blob (which Ollama verifies against the digest) — or, into an Ollama Hermes
// started itself, copied straight into its models folder while it is hashed
// (place) — and a model is created from it;
// Ollama takes the chat template from the file's metadata. modelfile, when
// given, is read by Ollama's own parser (parseModelfile): it may set TEMPLATE,
// SYSTEM, PARAMETER, LICENSE, MESSAGE, RENDERER, PARSER and REQUIRES.
func (c *Client) ImportGGUF(ctx context.Context, path, name, modelfile string, fn func(Progress) error) error {
	defer c.forget(name)
	if fn == nil {
		fn = func(Progress) error { return nil }
	}
	if strings.TrimSpace(name) == "" {
		return errors.New("import model: give the new model a name, e.g. --name my-model")
	}
	req, err := parseModelfile(modelfile)
	if err != nil {
		return fmt.Errorf("import model: %w", err)
	}
	if err := CheckGGUF(path); err != nil {
		return err
	}
	if v, err := c.Version(ctx); err != nil {
		return err
	} else if CompareVersions(v, MinImportVersion) < 0 {
		return fmt.Errorf("import model: %w", &TooOldError{Version: v, Need: MinImportVersion, What: "create a model from a file"})
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("import model: %w", err)
	}
	m := newMeter(time.Now)
	digest, placed, err := c.place(ctx, path, info.Size(), func(done int64) error { return fn(m.update("copying", done, info.Size())) })
	if err == nil && !placed {
		digest, err = c.upload(ctx, path, info.Size(), digest, m, fn)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("import model %s: cancelled: %w", name, ctx.Err())
		}
		return err
	}
	req.Model = name
	req.Files = map[string]string{filepath.Base(path): digest}
	create := func(f func(api.ProgressResponse) error) error { return c.api.Create(ctx, req, f) }
	last, err := followProgress(create, m, fn)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("import model %s: cancelled: %w", name, ctx.Err())
	case err != nil:
		return classify("create model "+name, err)
	case last != "success":
		return fmt.Errorf("import model %s: Ollama stopped answering before the model was created (last: %q)", name, last)
	}
	return nil
}

// upload hashes the file (unless its digest is known already) and uploads it
// to Ollama as a blob (Ollama checks it against the digest), and returns the
// digest.
func (c *Client) upload(ctx context.Context, path string, size int64, digest string, m *meter, fn func(Progress) error) (string, error) {
	if digest == "" {
		var err error
		if digest, err = hashFile(ctx, path, size, func(done int64) error { return fn(m.update("hashing", done, size)) }); err != nil {
			return "", err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("import model: %w", err)
	}
	defer f.Close()
	// The file itself is the body: the client's transport gives it its length
	// (sizedBodies), so the kernel sends it (sendfile) without copying it
	// through Hermes; progress is the file's offset, read as it moves.
	upCtx, abort := context.WithCancelCause(ctx) // a progress callback's error stops the upload
	defer abort(nil)
	stop := watchOffset(f, 200*time.Millisecond, func(done int64) {
		if err := fn(m.update("uploading", done, size)); err != nil {
			abort(err)
		}
	})
	err = c.api.CreateBlob(upCtx, digest, f)
	stop()
	if cause := context.Cause(upCtx); err != nil && cause != nil && ctx.Err() == nil {
		return "", cause
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err() // ImportGGUF says which import
		}
		return "", classify("upload "+filepath.Base(path), err)
	}
	return digest, fn(m.update("uploading", size, size))
}

// hashFile computes the sha256 digest of a file as Ollama names blobs, read in
// steps (progress and cancellation between them). Read, not mapped: the page
// faults of a mapped file cost more than read's copy into one buffer (256 MB
// from the page cache: 305 against 185 ms, README). A file that ends before
// size (cut short by another program, or its disk gone) is an error.
func hashFile(ctx context.Context, path string, size int64, fn func(int64) error) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	return hashReader(ctx, path, f, size, fn)
}

// hashReader is hashFile over r, the file at path already open.
func hashReader(ctx context.Context, path string, r io.Reader, size int64, fn func(int64) error) (string, error) {
	h := sha256.New()
	buf := make([]byte, 4<<20)
	for done := int64(0); done < size; {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("hash %s: cancelled: %w", path, err)
		}
		n, err := io.ReadFull(r, buf[:min(int64(len(buf)), size-done)])
		h.Write(buf[:n])
		done += int64(n)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return "", endedEarly("hash", path, done, size)
		}
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", path, err)
		}
		if err := fn(done); err != nil {
			return "", err
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// errChanged is a file that changed while an import read it.
var errChanged = errors.New("the file changed or its disk went away while it was read")

// endedEarly is a file that ended before its size, as another program cut it
// short or its disk went away.
func endedEarly(op, path string, done, size int64) error {
	return fmt.Errorf("%s %s: %w (it ended after %d of %d bytes); check the file and try again", op, path, errChanged, done, size)
}

// watchOffset reports f's offset every interval until stop is called.
func watchOffset(f *os.File, every time.Duration, fn func(int64)) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if off, err := f.Seek(0, io.SeekCurrent); err == nil {
					fn(off)
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
