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

// fuzzKinds are the files FuzzCage makes of its input: the name it is read
// by and a prefix put before it.
var fuzzKinds = []struct{ name, prefix string }{{"f.pdf", "%PDF-"}, {"f.docx", ""}, {"f.odt", ""}, {"f.html", ""}}

// FuzzCage hands the readers of PDF, DOCX, ODT and HTML files, in their
// cage, whatever the fuzzer makes of valid and hostile files: every file ends
// in a document or in one refusal of one line, and this process (the parent)
// never dies. `go tool task fuzz` runs it for long; CI for a short while.
func FuzzCage(f *testing.F) {
	good := documenttest.DOCX(`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Manual</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">Close </w:t><w:tab/><w:t>the valve.</w:t></w:r></w:p>`, "")
	for _, seed := range []struct {
		kind uint8
		data []byte
	}{
		{0, documenttest.MinimalPDF([]string{"Quarterly report"}, []string{"page two"})},
		{0, documenttest.XRefBombPDF()},
		{0, documenttest.BadXRefPDF()},
		{0, documenttest.MinimalPDF([]string{"cut short"})[:200]},
		{1, good},
		{1, good[:len(good)*2/3]},
		{1, documenttest.ZipBomb("word/document.xml", 1, 100)},
		{2, documenttest.ODT(`<text:h text:outline-level="1">Log</text:h><text:p>Serviced <text:span>in</text:span> March<text:s text:c="2"/>.</text:p>`)},
		{2, []byte("garbage named .odt")},
		{3, []byte(`<html><head><script>x()</script></head><body><h1>Page</h1><p>Readable&nbsp;text.<br>Next</p><pre> a\n  b</pre></body></html>`)},
	} {
		f.Add(seed.kind, seed.data)
	}
	exe, err := os.Executable()
	if err != nil {
		f.Fatal(err)
	}
	r := Reader{Exe: exe, Limits: func(context.Context) Limits {
		return Limits{Memory: 256 << 20, CPU: 3 * time.Second, Wall: 3 * time.Second}
	}}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		k := fuzzKinds[int(kind)%len(fuzzKinds)]
		d, err := r.Extract(context.Background(), k.name, append([]byte(k.prefix), data...))
		switch {
		case err == nil && d.Kind == document.KindImage: // its bytes say so, whatever its name
			if len(d.Data) == 0 {
				t.Fatalf("image with no data: %+v", d.Kind)
			}
			return
		case err == nil:
			if strings.TrimSpace(d.Text) == "" || !utf8.ValidString(d.Text) {
				t.Fatalf("doc = %+v", d)
			}
			return
		}
		var ref *document.Refusal
		if !errors.As(err, &ref) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `"`+k.name+`"`) {
			t.Fatalf("not one refusal of one line: %q", err)
		}
	})
}
