package cage

import (
	"context"
	"os"
	"testing"

	"hermes/backend/document"
	"hermes/backend/document/documenttest"
)

// BenchmarkExtractPDF is what the cage costs a PDF attach: the same 3-page PDF
// read in this process and in a cage child (this test binary as the child; the
// hermes executable loads more libraries at start).
func BenchmarkExtractPDF(b *testing.B) {
	pdf := documenttest.MinimalPDF([]string{"Quarterly report: the boiler was serviced in March."}, []string{"Invoice total 420 EUR."}, []string{"Garden."})
	b.Run("in=process", func(b *testing.B) {
		for b.Loop() {
			if _, err := document.Extract("r.pdf", pdf); err != nil {
				b.Fatal(err)
			}
		}
	})
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	r := Reader{Exe: exe}
	b.Run("in=cage", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Extract(context.Background(), "r.pdf", pdf); err != nil {
				b.Fatal(err)
			}
		}
	})
}
