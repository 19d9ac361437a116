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

// placeBlob copies the file at path into blobs (the blobs folder of an Ollama
// Hermes started itself) while it hashes it: one pass over the file, SHA-256
// on one core while the kernel copies (copy_file_range) on another, where an
// upload hashes first and then sends every byte through a socket for Ollama to
// hash again and write. The copy is a temporary file first, named as no
// digest is (Ollama removes such files when it starts, should Hermes stop
// mid-way), removed on any error, and then named as Ollama names blobs
// (sha256-HEX). It returns the digest and whether it made the blob (false when
// Ollama had it already). fn gets the bytes both hashed and copied.
func placeBlob(ctx context.Context, path string, size int64, blobs string, fn func(int64) error) (digest string, made bool, err error) {
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
	src, err := os.Open(path)
	if err != nil {
		return "", false, fmt.Errorf("import model: %w", err)
	}
	defer src.Close()

	both, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var copied atomic.Int64
	copyDone := make(chan error, 1)
	go func() {
		err := copyInSteps(both, tmp, src, size, &copied)
		if err != nil {
			stop(err)
		}
		copyDone <- err
	}()
	digest, hashErr := hashFile(both, path, size, func(hashed int64) error { return fn(min(hashed, copied.Load())) })
	if hashErr != nil {
		stop(hashErr)
	}
	copyErr := <-copyDone
	switch cause := context.Cause(both); {
	case ctx.Err() != nil:
		return "", false, fmt.Errorf("import model: cancelled: %w", ctx.Err())
	case copyErr != nil && copyErr == cause: // the copy failed first
		return "", false, copyFailed(blobs, copyErr)
	case hashErr != nil || copyErr != nil:
		return "", false, cause // the hash's error, or the progress callback's own
	}
	if err := fn(size); err != nil {
		return "", false, err
	}
	if err := tmp.Close(); err != nil { // a write the disk refused late (a network folder) shows here
		return "", false, fmt.Errorf("import model: copy into %s: %w", blobs, err)
	}
	final := filepath.Join(blobs, blobName(digest))
	if _, err := os.Lstat(final); err == nil {
		os.Remove(tmp.Name()) // Ollama has it: the same file imported before
		return digest, false, nil
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return "", false, fmt.Errorf("import model: %w", err)
	}
	return digest, true, nil
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

// copyInSteps copies size bytes of src to dst in steps (the kernel copies each
// one; cancellation and progress between them). A source that ends early is an
// error.
func copyInSteps(ctx context.Context, dst, src *os.File, size int64, done *atomic.Int64) error {
	const step = 64 << 20
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
			return fmt.Errorf("%s ended after %d of %d bytes; check the file and try again", src.Name(), n, size)
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
