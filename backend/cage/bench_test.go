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
