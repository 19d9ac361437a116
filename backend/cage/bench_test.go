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

// BenchmarkExtractImage is the same for a 12-megapixel photo (4000×3000 JPEG,
// quality 90): downscaled in this process and in a cage child (one CPU).
func BenchmarkExtractImage(b *testing.B) {
	photo := documenttest.JPEG(documenttest.Photo(4000, 3000), 90)
	b.Run("in=process", func(b *testing.B) {
		for b.Loop() {
			if _, err := document.Extract("photo.jpg", photo); err != nil {
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
			if _, err := r.Extract(context.Background(), "photo.jpg", photo); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOCRPage is a scanned A4 page (200 dpi, 40 lines of 11-point
// English) read for the knowledge base, in this process and in a cage child
// (which adds the child's start): pages/min on one core.
func BenchmarkOCRPage(b *testing.B) {
	needOCR(b)
	pdf := documenttest.ScannedPDF(200, a4(documenttest.Lines(40)...))
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	r := Reader{Exe: exe}
	for _, c := range []struct {
		name string
		read func() (document.Doc, error)
	}{
		{"in=process", func() (document.Doc, error) { return document.ExtractText("page.pdf", pdf) }},
		{"in=cage", func() (document.Doc, error) { return r.ExtractText(context.Background(), "page.pdf", pdf) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if d, err := c.read(); err != nil || !d.OCR {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*60/b.Elapsed().Seconds(), "pages/min")
		})
	}
}
