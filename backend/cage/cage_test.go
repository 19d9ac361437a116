package cage

import (
	"context"
	"errors"
	"os"
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
