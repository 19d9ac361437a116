package document

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// readPDF reads a PDF's text layer page by page; for ExtractText (t not nil)
// the pages that have none are rendered and recognised.
func readPDF(name string, data []byte, t *textRun) (content, error) {
	texts, sizes, err := pdfPages(data)
	if err != nil {
		d := detail(err)
		return content{}, refuse(RefusedNotPDF, name, map[string]string{"detail": d},
			ErrUnsupported, "%q could not be read as a PDF (%s); Hermes can attach %s", name, d, Supported)
	}
	if t != nil {
		return t.pdf(data, texts, sizes)
	}
	return joinPages(texts), nil
}

// pageSize is a page's width and height in points (1/72 inch); zero when
// the PDF does not say.
type pageSize struct{ w, h float64 }

// pdfPages is the text layer of each page of a PDF and the page's size (its
// MediaBox), reading no further once the text is past what a document may
// hold, or at a page the page tree does not lead to. The reader is given
// untrusted bytes: a panic in it is an unreadable file.
func pdfPages(data []byte) (texts []string, sizes []pageSize, err error) {
	defer func() {
		if r := recover(); r != nil {
			texts, sizes, err = nil, nil, errors.New("malformed file")
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, err
	}
	total := 0
	for i := 1; i <= r.NumPage() && total <= MaxChars*4; i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			break // past the pages the tree holds (a /Count that lies)
		}
		t, err := p.GetPlainText(nil)
		if err != nil {
			return nil, nil, err
		}
		texts = append(texts, t)
		sizes = append(sizes, mediaSize(p))
		total += len(t)
	}
	return texts, sizes, nil
}

// mediaSize is a page's MediaBox, its own or the nearest of its parents'
// (at most 32 up: a page tree may loop).
func mediaSize(p pdf.Page) pageSize {
	b := p.V.Key("MediaBox")
	for v, i := p.V, 0; b.IsNull() && !v.IsNull() && i < 32; i++ {
		v = v.Key("Parent")
		b = v.Key("MediaBox")
	}
	if b.Len() != 4 {
		return pageSize{}
	}
	return pageSize{math.Abs(b.Index(2).Float64() - b.Index(0).Float64()), math.Abs(b.Index(3).Float64() - b.Index(1).Float64())}
}

// joinPages is the text of pages, each normalized, separated by a blank line,
// with where each begins (Doc.Pages).
func joinPages(texts []string) content {
	var b strings.Builder
	pages := make([]int, len(texts))
	n := 0 // runes written
	for i, t := range texts {
		t = normalize(t)
		if t == "" {
			pages[i] = -1
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
			n += 2
		}
		pages[i] = n
		b.WriteString(t)
		n += utf8.RuneCountInString(t)
	}
	next := n // a page with no text begins where the next one does
	for i := len(pages) - 1; i >= 0; i-- {
		if pages[i] < 0 {
			pages[i] = next
		}
		next = pages[i]
	}
	return content{text: b.String(), pages: pages}
}
