package cage

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"hermes/backend/document"
	"hermes/backend/document/documenttest"
)

func TestMain(m *testing.M) {
	RunIfChild()
	os.Exit(m.Run())
}

func reader(t *testing.T, lim Limits) Reader {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Reader{Exe: exe, Limits: func(context.Context) Limits { return lim }}
}

func TestReadsInTheCage(t *testing.T) {
	r := reader(t, DefaultLimits())
	pdf := documenttest.MinimalPDF([]string{"The pump was serviced on 3 March."}, []string{"Second page."})
	d, err := r.Extract(context.Background(), "dir/log.pdf", pdf)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "log.pdf" || d.Kind != document.KindPDF || !strings.Contains(d.Text, "pump was serviced") || !strings.Contains(d.Text, "Second page") {
		t.Fatalf("doc = %+v", d)
	}
	// A refusal inside the child comes back as the same refusal.
	_, err = r.Extract(context.Background(), "scan.pdf", documenttest.MinimalPDF([]string{}))
	var ref *document.Refusal
	if !errors.As(err, &ref) || ref.Reason != document.RefusedNoTextLayer || !errors.Is(err, document.ErrNoText) || ref.Name != "scan.pdf" {
		t.Fatalf("empty PDF: %v (%+v)", err, ref)
	}
	// Text is read here: the cage's Exe is never run for it.
	text, err := Reader{Exe: "/nonexistent"}.Extract(context.Background(), "a.txt", []byte("plain words"))
	if err != nil || text.Text != "plain words" {
		t.Fatalf("text: %+v %v", text, err)
	}
}

// The PDFs that killed or hung Hermes each end in one refusal, with the
// default limits, within 25 s; the parent keeps running.
func TestHostilePDFs(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		reason []string
	}{
		{"xref bomb", documenttest.XRefBombPDF(), []string{document.RefusedTooMuchMemory}},
		{"page tree names itself", documenttest.SelfKidsPDF(), []string{document.RefusedTooSlow, document.RefusedNotPDF, document.RefusedNoTextLayer}},
		// Inflated as it is read: 2 s and 7 MB in a plain build, past 20 s under -race.
		{"flate bomb", documenttest.FlateBombPDF(1 << 20), []string{document.RefusedNoTextLayer, document.RefusedTooSlow, document.RefusedTooMuchMemory}},
		{"bad xref", documenttest.BadXRefPDF(), []string{document.RefusedNotPDF, document.RefusedReaderFailed}},
	}
	r := reader(t, DefaultLimits())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := r.Extract(context.Background(), "x.pdf", c.data)
			took := time.Since(start)
			var ref *document.Refusal
			if !errors.As(err, &ref) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			t.Logf("%s: %s in %v: %v", c.name, ref.Reason, took.Round(time.Millisecond), err)
			if !contains(c.reason, ref.Reason) {
				t.Errorf("reason %q, want one of %v", ref.Reason, c.reason)
			}
			if took > 25*time.Second {
				t.Errorf("took %v, want at most 25 s", took)
			}
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `"x.pdf"`) {
				t.Errorf("refusal is not one line naming the file: %q", err)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Each limit is worded as the limit it is, with the figure the settings gave.
func TestLimitsWorded(t *testing.T) {
	cases := []struct {
		name   string
		lim    Limits
		data   []byte
		reason string
		words  string
	}{
		{"memory", Limits{Memory: 64 << 20, CPU: 20 * time.Second, Wall: 20 * time.Second}, documenttest.XRefBombPDF(), document.RefusedTooMuchMemory, "it needs more than 64 MB"},
		{"wall clock", Limits{Memory: 512 << 20, CPU: 20 * time.Second, Wall: 2 * time.Second}, documenttest.SelfKidsPDF(), document.RefusedTooSlow, "it took longer than 2 s"},
		{"cpu time", Limits{Memory: 512 << 20, CPU: time.Second, Wall: 20 * time.Second}, documenttest.SelfKidsPDF(), document.RefusedTooSlow, "it took longer than 1 s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := reader(t, c.lim).Extract(context.Background(), "report.pdf", c.data)
			var ref *document.Refusal
			if !errors.As(err, &ref) || ref.Reason != c.reason || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("err = %v (%+v), want %s saying %q", err, ref, c.reason, c.words)
			}
		})
	}
}

// Cancelling the request stops the child at once and says it was cancelled.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := reader(t, DefaultLimits()).Extract(ctx, "loop.pdf", documenttest.SelfKidsPDF())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the request's own deadline", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("cancel took %v", took)
	}
}

// A child that dies (here: a program that is not a cage) is a refusal, not an error of Hermes.
func TestChildDies(t *testing.T) {
	_, err := Reader{Exe: "/bin/false"}.Extract(context.Background(), "a.pdf", documenttest.MinimalPDF([]string{"x"}))
	var ref *document.Refusal
	if !errors.As(err, &ref) || ref.Reason != document.RefusedReaderFailed || !strings.Contains(err.Error(), "exit 1") {
		t.Fatalf("err = %v", err)
	}
}

// Images are read in the child too: what comes back is the downscaled image
// with its size and preview, through the JSON the child writes.
func TestImagesInTheCage(t *testing.T) {
	r := reader(t, DefaultLimits())
	photo := documenttest.JPEG(documenttest.Photo(2400, 1800), 90)
	d, err := r.Extract(context.Background(), "dir/photo.jpg", photo)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "photo.jpg" || d.Kind != document.KindImage || d.Mime != "image/jpeg" || d.Width != 1024 || d.Height != 768 || len(d.Thumb) == 0 {
		t.Fatalf("doc = %s %s %s %d×%d, thumb %d bytes", d.Name, d.Kind, d.Mime, d.Width, d.Height, len(d.Thumb))
	}
	m, err := jpeg.Decode(bytes.NewReader(d.Data))
	if err != nil || m.Bounds().Dx() != 1024 || m.Bounds().Dy() != 768 {
		t.Fatalf("image back from the child: %v, %v", m.Bounds(), err)
	}
	// It is not read here: a cage that cannot start refuses it.
	_, err = Reader{Exe: "/nonexistent"}.Extract(context.Background(), "photo.jpg", photo)
	var ref *document.Refusal
	if !errors.As(err, &ref) || ref.Reason != document.RefusedReaderFailed {
		t.Fatalf("an image was read outside the cage: %v", err)
	}
	// Over the text limit but under the image limit: read, not refused by size.
	big := documenttest.PNG(documenttest.Photo(2000, 1500))
	if len(big) <= document.MaxBytes {
		big = append(big, make([]byte, document.MaxBytes-len(big)+1)...) // bytes after IEND are ignored
	}
	if d, err := r.Extract(context.Background(), "screen.png", big); err != nil || d.Width != 1024 {
		t.Fatalf("an 11 MB PNG: %+v %v", d.Width, err)
	}
}

// Hostile images each end in one refusal of one line naming the file and
// saying why; the parent keeps running.
func TestHostileImages(t *testing.T) {
	good := documenttest.PNG(documenttest.Photo(64, 48))
	cases := []struct {
		name   string
		file   string
		data   []byte
		lim    Limits
		reason string
		words  string
	}{
		{"broken", "photo.png", good[:len(good)/3], DefaultLimits(), document.RefusedNotImage, `"photo.png" could not be read as an image`},
		{"claims 100000×100000", "bomb.png", append(documenttest.PNGHeader(100000, 100000, 8), good[33:]...), DefaultLimits(),
			document.RefusedTooManyPixels, `"bomb.png" is 100000×100000 pixels (10000 megapixels); images up to 50 megapixels can be attached`},
		// Under the pixel limit, 392 MB of 16-bit pixels allocated before any is read.
		{"16-bit bomb under a small cage", "deep.png", documenttest.PNGBomb(7000, 7000), Limits{Memory: 128 << 20, CPU: 20 * time.Second, Wall: 20 * time.Second},
			document.RefusedTooMuchMemory, `"deep.png" could not be read: it needs more than 128 MB`},
		{"jpeg cut short", "cut.jpg", documenttest.JPEG(documenttest.Photo(2400, 1800), 90)[:20000], DefaultLimits(), document.RefusedNotImage, "could not be read as an image"},
		{"named an image, is not", "fake.gif", []byte("hello, not a picture"), DefaultLimits(), document.RefusedNotImage, "could not be read as an image (not a PNG, JPEG, WebP or GIF file)"},
		{"gif header only", "short.gif", []byte("GIF89a\x10\x00"), DefaultLimits(), document.RefusedNotImage, "could not be read as an image"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := reader(t, c.lim).Extract(context.Background(), c.file, c.data)
			var ref *document.Refusal
			if !errors.As(err, &ref) || ref.Reason != c.reason || !strings.Contains(err.Error(), c.words) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v (%+v), want %s saying %q on one line", err, ref, c.reason, c.words)
			}
			t.Logf("%s in %v", ref.Reason, time.Since(start).Round(time.Millisecond))
		})
	}
}

// What a child writes is read up to maxOut and no further: a child that
// writes without end is refused as too long, and its output is not held.
func TestOutputCapped(t *testing.T) {
	r := Reader{Exe: "/bin/sh", Extra: func(cmd *exec.Cmd) {
		cmd.Args = []string{"sh", "-c", "head -c 40000000 /dev/zero"}
		cmd.Env = append(cmd.Env, "PATH=/usr/bin:/bin")
	}}
	_, err := r.Extract(context.Background(), "big.pdf", documenttest.MinimalPDF([]string{"x"}))
	var ref *document.Refusal
	if !errors.As(err, &ref) || ref.Reason != document.RefusedTooLong {
		t.Fatalf("err = %v, want too long", err)
	}
}
