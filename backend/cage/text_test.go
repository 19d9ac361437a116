package cage

import (
	"context"
	"errors"
	"image"
	"os/exec"
	"strings"
	"testing"
	"time"

	"hermes/backend/document"
	"hermes/backend/document/documenttest"
)

func needOCR(t testing.TB) {
	t.Helper()
	for _, p := range []string{"tesseract", "pdftoppm"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("%s is not installed: run `go tool task setup:apt` (tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-chi-sim, poppler-utils)", p)
		}
	}
}

func a4(lines ...string) *image.Gray { return documenttest.Printed(1654, 2339, 30, lines...) }

// The knowledge base's reading runs in the cage under the default limits
// (512 MB: tesseract and pdftoppm inherit the child's limits): a scanned PDF
// comes back recognised with its pages, an image as its text; attaching the
// same image still gives the image.
func TestTextInTheCage(t *testing.T) {
	needOCR(t)
	r := reader(t, DefaultLimits())
	pdf := documenttest.ScannedPDF(200, a4("Page one: the boiler was serviced."), a4("Page two: the garden pump."))
	d, err := r.ExtractText(context.Background(), "dir/scan.pdf", pdf)
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(d.Text)
	if d.Name != "scan.pdf" || d.Kind != document.KindPDF || !d.OCR || len(d.Pages) != 2 ||
		!strings.Contains(string(rs[:d.Pages[1]]), "boiler") || !strings.Contains(string(rs[d.Pages[1]:]), "garden pump") {
		t.Fatalf("doc %+v", d)
	}
	png := documenttest.PNG(documenttest.Printed(1400, 300, 32, "Invoice total: 421 EUR."))
	if d, err := r.ExtractText(context.Background(), "bill.png", png); err != nil || !d.OCR || !strings.Contains(d.Text, "Invoice total") {
		t.Fatalf("image: %+v, %v", d, err)
	}
	if d, err := r.Extract(context.Background(), "bill.png", png); err != nil || d.Kind != document.KindImage || len(d.Data) == 0 || d.OCR {
		t.Fatalf("attached image: %s %v, %v", d.Kind, d.OCR, err)
	}
}

// DOCX, ODT and HTML are read in the child, for attaching and for the
// knowledge base alike.
func TestOfficeInTheCage(t *testing.T) {
	r := reader(t, DefaultLimits())
	docx := documenttest.DOCX(`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Manual</w:t></w:r></w:p><w:p><w:r><w:t>Close the valve.</w:t></w:r></w:p>`, "")
	odt := documenttest.ODT(`<text:h text:outline-level="1">Log</text:h><text:p>Serviced in March.</text:p>`)
	html := []byte(`<html><head><script>x()</script></head><body><h1>Page</h1><p>Readable text.</p></body></html>`)
	for _, c := range []struct {
		file string
		data []byte
		want string
	}{{"m.docx", docx, "# Manual\n\nClose the valve."}, {"l.odt", odt, "# Log\n\nServiced in March."}, {"p.html", html, "# Page\n\nReadable text."}} {
		for _, text := range []bool{false, true} {
			extract := r.Extract
			if text {
				extract = r.ExtractText
			}
			d, err := extract(context.Background(), c.file, c.data)
			if err != nil || d.Text != c.want {
				t.Errorf("%s (text mode %v): %q, %v", c.file, text, d.Text, err)
			}
		}
		_, err := Reader{Exe: "/nonexistent"}.Extract(context.Background(), c.file, c.data)
		var ref *document.Refusal
		if !errors.As(err, &ref) || ref.Reason != document.RefusedReaderFailed {
			t.Errorf("%s was read outside the cage: %v", c.file, err)
		}
	}
}

// In text mode the wall-clock limit is each step's: a scan whose pages
// together take longer than the limit is read, and a page that alone takes
// longer is refused as too slow.
func TestTextWallClockPerPage(t *testing.T) {
	needOCR(t)
	// A step may take ten times its quiet time (a loaded CI machine running
	// -race builds beside it) and still be within the limit; the pages together
	// still take longer than it.
	lim := Limits{Memory: 512 << 20, CPU: 30 * time.Second, Wall: 5 * time.Second}
	var pages []any
	for range 16 { // about 0.45 s each here: 7 s in all
		pages = append(pages, documenttest.Printed(800, 300, 32, "A short page of text."))
	}
	start := time.Now()
	d, err := reader(t, lim).ExtractText(context.Background(), "many.pdf", documenttest.ScannedPDF(200, pages...))
	took := time.Since(start)
	if err != nil || len(d.Pages) != 16 || strings.Count(d.Text, "short page") != 16 {
		t.Fatalf("16 pages in %v: %v (%q)", took, err, d.Text)
	}
	t.Logf("16 pages in %v under a wall-clock limit of %v a step", took.Round(time.Millisecond), lim.Wall)
	var lines []string
	for range 45 {
		lines = append(lines, "A dense page of text that takes Tesseract a few seconds to read through.")
	}
	lim.Wall = time.Second
	_, err = reader(t, lim).ExtractText(context.Background(), "dense.pdf", documenttest.ScannedPDF(200, a4(lines...)))
	var ref *document.Refusal
	if !errors.As(err, &ref) || ref.Reason != document.RefusedTooSlow || !strings.Contains(err.Error(), "it took longer than 1 s") {
		t.Fatalf("a page over the limit: %v", err)
	}
}

// Hostile office files each end in one refusal of one line naming the file,
// through the cage.
func TestHostileOffice(t *testing.T) {
	good := documenttest.DOCX(`<w:p><w:r><w:t>hello</w:t></w:r></w:p>`, "")
	cases := []struct {
		name, file string
		data       []byte
		reason     string
	}{
		{"truncated docx", "cut.docx", good[:len(good)*2/3], document.RefusedNotDocument},
		{"zip bomb docx", "bomb.docx", documenttest.ZipBomb("word/document.xml", 8, 8<<30), document.RefusedUnpackedTooBig},
		{"zip bomb docx that lies", "liar.docx", documenttest.ZipBomb("word/document.xml", 2, 1000), document.RefusedNotDocument},
		{"garbage named .odt", "junk.odt", []byte("\x00\x01garbage, not a zip\xff"), document.RefusedNotDocument},
		{"html of a million open tags", "deep.html", []byte(strings.Repeat("<div><span>", 500_000)), document.RefusedEmpty},
	}
	r := reader(t, DefaultLimits())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := r.ExtractText(context.Background(), c.file, c.data)
			var ref *document.Refusal
			if !errors.As(err, &ref) || ref.Reason != c.reason || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `"`+c.file+`"`) {
				t.Fatalf("err = %v, want %s in one line naming the file", err, c.reason)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}
