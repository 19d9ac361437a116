package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
)

// errNoStore is a models folder Hermes cannot write a blob into (not there,
// not its user's): the import uploads instead, as to any Ollama.
var errNoStore = errors.New("cannot write into Ollama's models folder")

// copyStep is how much of a file the kernel copies between two looks at
// cancellation and progress.
const copyStep = 64 << 20

// place writes the file's blob straight into the models folder of an Ollama
// Hermes started itself (placeBlob) and returns its digest, when Ollama then
// says it has it; placed is false when there is no such folder, Hermes cannot
// write into it, or Ollama does not see the blob there (it keeps its models
// elsewhere): the caller uploads.
func (c *Client) place(ctx context.Context, path string, size int64, fn func(int64) error) (digest string, placed bool, err error) {
	store := c.cfg.Store()
	if store == "" {
		return "", false, nil
	}
	blobs := filepath.Join(store, "blobs")
	digest, made, err := placeBlob(ctx, path, size, copyStep, blobs, fn)
	if errors.Is(err, errNoStore) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	has, err := c.hasBlob(ctx, digest)
	if err != nil {
		return "", false, err // the blob stays: another import may be using it; Ollama prunes it if none does
	}
	if !has && made { // Ollama keeps its models elsewhere: the copy is no use
		os.Remove(filepath.Join(blobs, blobName(digest)))
	}
	return digest, has, nil
}

// placeBlob copies the file at path into blobs (the blobs folder of an Ollama
// Hermes started itself) while it hashes it: one pass over the file, SHA-256
// on one core while the kernel copies (copy_file_range, in steps of step
// bytes) on another, where an upload hashes first and then sends every byte
// through a socket for Ollama to hash again and write. Both read the file
// through one open handle, and a file that changed meanwhile (its size or
// time, or another file put in its place) is refused: the blob is named by
// the digest and nothing checks it later. The copy is a temporary file first,
// named as no digest is (Ollama removes such files when it starts, unless
// OLLAMA_NOPRUNE is set), removed on any error, and then named as Ollama
// names blobs (sha256-HEX), never over one that is there. It returns the
// digest and whether it made the blob (false when Ollama had it already). fn
// gets the bytes both hashed and copied.
func placeBlob(ctx context.Context, path string, size, step int64, blobs string, fn func(int64) error) (digest string, made bool, err error) {
	src, err := os.Open(path)
	if err != nil {
		return "", false, fmt.Errorf("import model: %w", err)
	}
	defer src.Close()
	before, err := src.Stat()
	if err != nil {
		return "", false, fmt.Errorf("import model: %w", err)
	}
	tmp, err := os.CreateTemp(blobs, "hermes-import-*-partial")
	if err != nil {
		return "", false, fmt.Errorf("%w %s: %w", errNoStore, blobs, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	both, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var copied atomic.Int64
	copyDone := make(chan struct{})
	go func() {
		defer close(copyDone)
		if err := copyInSteps(both, tmp, src, size, step, &copied); err != nil {
			stop(&copyError{err})
		}
	}()
	// The hash reads at offsets (pread) of the handle whose offset the copy moves.
	// The whole size is reported once, after both are done.
	digest, hashErr := hashReader(both, path, io.NewSectionReader(src, 0, size), size, func(hashed int64) error { return fn(min(hashed, copied.Load(), size-1)) })
	if hashErr != nil {
		stop(hashErr)
	}
	<-copyDone
	var ce *copyError
	switch cause := context.Cause(both); {
	case ctx.Err() != nil:
		return "", false, ctx.Err()
	case errors.As(cause, &ce) && errors.Is(ce.err, errChanged):
		return "", false, ce.err // the file, not the folder
	case ce != nil:
		return "", false, copyFailed(blobs, ce.err)
	case cause != nil:
		return "", false, cause // the hash's error, or the progress callback's own
	}
	if err := unchanged(path, src, before); err != nil {
		return "", false, err
	}
	if err := fn(size); err != nil {
		return "", false, err
	}
	if err := ctx.Err(); err != nil { // stopped at the last report: no blob
		return "", false, err
	}
	if err := tmp.Close(); err != nil { // a write the disk refused late (a network folder) shows here
		return "", false, copyFailed(blobs, err)
	}
	// A link never replaces a blob that is there (the same file imported
	// before, or at the same time by another import).
	final := filepath.Join(blobs, blobName(digest))
	switch err := os.Link(tmp.Name(), final); {
	case err == nil:
		made = true
	case errors.Is(err, os.ErrExist):
	default: // a file system without links (FAT): rename, unless the blob is there
		if _, err := os.Lstat(final); err == nil {
			break
		}
		if err := os.Rename(tmp.Name(), final); err != nil {
			return "", false, fmt.Errorf("import model: %w", err)
		}
		return digest, true, nil
	}
	os.Remove(tmp.Name())
	return digest, made, nil
}

// copyError is the copy's own failure (the hash's is not one).
type copyError struct{ err error }

func (e *copyError) Error() string { return e.err.Error() }
func (e *copyError) Unwrap() error { return e.err }

// unchanged refuses a file that another program changed, or put another file
// in place of, while it was read (before is how it was when it was opened).
func unchanged(path string, f *os.File, before os.FileInfo) error {
	now, err := f.Stat()
	if err != nil {
		return fmt.Errorf("import model: %w", err)
	}
	there, err := os.Stat(path)
	if err != nil || now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime()) || !os.SameFile(before, there) {
		return fmt.Errorf("import model %s: %w; check the file and try again", path, errChanged)
	}
	return nil
}

// copyFailed says why a copy into the blobs folder failed; a full disk is
// ErrDiskFull, as when Ollama's own write fails so.
func copyFailed(blobs string, err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("import model: copy into %s: %w (%w); free some space (`hermes model rm` removes models you no longer need) and try again", blobs, ErrDiskFull, err)
	}
	return fmt.Errorf("import model: copy into %s: %w", blobs, err)
}

// blobName is the name of a blob's file in Ollama's blobs folder.
func blobName(digest string) string { return "sha256-" + digest[len("sha256:"):] }

// copyInSteps copies size bytes of src, from its offset, to dst in steps (the
// kernel copies each one; cancellation and progress between them). A source
// that ends early is an error.
func copyInSteps(ctx context.Context, dst, src *os.File, size, step int64, done *atomic.Int64) error {
	for n := int64(0); n < size; {
		if err := ctx.Err(); err != nil {
			return err
		}
		w, err := dst.ReadFrom(io.LimitReader(src, min(step, size-n)))
		n += w
		done.Store(n)
		if err != nil {
			return err
		}
		if w == 0 {
			return endedEarly("copy", src.Name(), n, size)
		}
	}
	return nil
}

// hasBlob asks Ollama whether it has a blob (HEAD /api/blobs/DIGEST: 200 when
// its file is in Ollama's models folder).
func (c *Client) hasBlob(ctx context.Context, digest string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, c.host.JoinPath("api", "blobs", digest).String(), nil)
	if err != nil {
		return false, fmt.Errorf("check blob: %w", err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false, classify("check blob", err)
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK, nil
}
