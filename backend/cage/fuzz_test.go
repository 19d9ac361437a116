package cage

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hermes/backend/document"
	"hermes/backend/document/documenttest"
)

// FuzzCage hands the PDF reader, in its cage, whatever the fuzzer makes of
// valid and hostile PDFs: every file ends in a document or in one refusal of
// one line, and this process (the parent) never dies. `go tool task fuzz`
// runs it for long; CI for a short while.
func FuzzCage(f *testing.F) {
	for _, seed := range [][]byte{
		documenttest.MinimalPDF([]string{"Quarterly report"}, []string{"page two"}),
		documenttest.XRefBombPDF(),
		documenttest.BadXRefPDF(),
		documenttest.MinimalPDF([]string{"cut short"})[:200],
	} {
		f.Add(seed)
	}
	exe, err := os.Executable()
	if err != nil {
		f.Fatal(err)
	}
	r := Reader{Exe: exe, Limits: func(context.Context) Limits {
		return Limits{Memory: 256 << 20, CPU: 3 * time.Second, Wall: 3 * time.Second}
	}}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := r.Extract(context.Background(), "f.pdf", append([]byte("%PDF-"), data...))
		if err == nil {
			if strings.TrimSpace(d.Text) == "" || !utf8.ValidString(d.Text) || d.Kind != document.KindPDF {
				t.Fatalf("doc = %+v", d)
			}
			return
		}
		var ref *document.Refusal
		if !errors.As(err, &ref) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `"f.pdf"`) {
			t.Fatalf("not one refusal of one line: %q", err)
		}
	})
}
