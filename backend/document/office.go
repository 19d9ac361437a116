package document

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"hermes/backend/lazyre"
	"io"
	"path"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"
)

// Word (DOCX) and OpenDocument (ODT) files are zip archives of XML parts. The
// standard library parses both layers (archive/zip, encoding/xml); the readers
// here only pick the text out of the document's main part, as paragraphs
// separated by blank lines, headings as Markdown "#" lines (so that a chunker
// can follow them), list items as "- " lines and each table cell as its own
// paragraph. Footnotes, comments, headers and footers, deleted tracked changes
// and field codes are left out.

// maxPartBytes is the most one XML part may unpack to: a document of MaxChars
// characters is a few MB of markup, so more is a zip bomb.
const maxPartBytes = 64 << 20

// zipKind is an ODT or DOCX file known by its header alone: a zip whose first
// entry is ODT's "mimetype" (stored uncompressed first, as the format
// requires) naming a text document, or "[Content_Types].xml" (Word writes it
// first). Only the first local header's fixed fields are read.
func zipKind(data []byte) string {
	if len(data) < 30 || string(data[:4]) != "PK\x03\x04" {
		return ""
	}
	n, extra := int(binary.LittleEndian.Uint16(data[26:28])), int(binary.LittleEndian.Uint16(data[28:30]))
	if 30+n+extra > len(data) {
		return ""
	}
	switch string(data[30 : 30+n]) {
	case "mimetype":
		if bytes.HasPrefix(data[30+n+extra:], []byte("application/vnd.oasis.opendocument.text")) {
			return KindODT
		}
	case "[Content_Types].xml":
		return KindDOCX
	}
	return ""
}

func notDocument(name, format string, err error) error {
	detail := detail(err)
	article := "a"
	if strings.HasPrefix(format, "O") {
		article = "an"
	}
	return refuse(RefusedNotDocument, name, map[string]string{"format": format, "detail": detail},
		ErrUnsupported, "%q could not be read as %s %s document (%s); Hermes can attach %s", name, article, format, detail, Supported)
}

var errPartTooBig = errors.New("part too big")

// openZip opens a DOCX or ODT file's archive.
func openZip(data []byte) (*zip.Reader, error) {
	if bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0")) { // an OLE compound file
		return nil, errors.New("it is encrypted, or an old binary (.doc) file")
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if errors.Is(err, zip.ErrInsecurePath) { // names such as ../x: nothing is written out
		err = nil
	}
	return zr, err
}

func zipFile(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// readPart streams one XML part through walk, refusing a part that unpacks
// to more than maxPartBytes (archive/zip also holds it to the size it declares).
func readPart(name, format string, f *zip.File, walk func(*xml.Decoder) error) error {
	if f.UncompressedSize64 > maxPartBytes {
		return unpackedTooBig(name)
	}
	rc, err := f.Open()
	if err != nil {
		return notDocument(name, format, err)
	}
	defer rc.Close()
	d := xml.NewDecoder(&capped{r: rc, left: maxPartBytes})
	d.CharsetReader = charset.NewReaderLabel
	switch err := walk(d); {
	case errors.Is(err, errPartTooBig):
		return unpackedTooBig(name)
	case err != nil:
		return notDocument(name, format, fmt.Errorf("%s: %w", f.Name, err))
	}
	return nil
}

func unpackedTooBig(name string) error {
	limit := size(maxPartBytes)
	return refuse(RefusedUnpackedTooBig, name, map[string]string{"limit": limit},
		ErrTooLarge, "%q could not be read: a part of it unpacks to more than %s", name, limit)
}

// capped reads at most left bytes, then fails with errPartTooBig.
type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errPartTooBig
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// readDOCX reads a Word document's body (the part its package relationships
// name, word/document.xml as Word writes it).
func readDOCX(name string, data []byte) (content, error) {
	zr, err := openZip(data)
	if err != nil {
		return content{}, notDocument(name, "DOCX", err)
	}
	main := docxMain(zr)
	f := zipFile(zr, main)
	if f == nil {
		return content{}, notDocument(name, "DOCX", fmt.Errorf("it has no %s", main))
	}
	w := docxWalker{levels: docxHeadings(zr, path.Join(path.Dir(main), "styles.xml"))}
	if err := readPart(name, "DOCX", f, w.walk); err != nil {
		return content{}, err
	}
	return content{text: w.p.text()}, nil
}

// docxMain is the main part's name from the package's relationships
// (_rels/.rels), word/document.xml when they do not say.
func docxMain(zr *zip.Reader) string {
	var rels struct {
		Rel []struct {
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if f := zipFile(zr, "_rels/.rels"); f != nil && f.UncompressedSize64 < 1<<20 {
		if rc, err := f.Open(); err == nil {
			_ = xml.NewDecoder(io.LimitReader(rc, 1<<20)).Decode(&rels)
			rc.Close()
		}
	}
	for _, r := range rels.Rel {
		if strings.HasSuffix(r.Type, "/officeDocument") && r.Target != "" {
			return strings.TrimPrefix(path.Clean("/"+r.Target), "/")
		}
	}
	return "word/document.xml"
}

// headingID is Word's own id of a built-in heading style ("Heading1"), in
// case styles.xml does not say.
var headingID = lazyre.New(`^(?i:heading)([1-9])$`)

// docxHeadings maps paragraph style ids to heading levels: the built-in
// styles by their names ("heading 1" to "heading 9", "Title" as 1), whatever
// a translated Word calls their ids, and any style with an outline level.
func docxHeadings(zr *zip.Reader, name string) map[string]int {
	levels := map[string]int{}
	f := zipFile(zr, name)
	if f == nil || f.UncompressedSize64 > maxPartBytes {
		return levels
	}
	rc, err := f.Open()
	if err != nil {
		return levels
	}
	defer rc.Close()
	d := xml.NewDecoder(&capped{r: rc, left: maxPartBytes})
	id := ""
	for {
		tok, err := d.Token()
		if err != nil {
			return levels // the styles are a help: what was read is kept
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch el.Name.Local {
		case "style":
			id = attr(el, "styleId")
		case "name":
			if v := strings.ToLower(attr(el, "val")); v == "title" {
				levels[id] = 1
			} else if n, ok := strings.CutPrefix(v, "heading "); ok && len(n) == 1 && n >= "1" && n <= "9" {
				levels[id] = int(n[0] - '0')
			}
		case "outlineLvl":
			if n, err := strconv.Atoi(attr(el, "val")); err == nil && n >= 0 && n < 9 && id != "" {
				levels[id] = n + 1
			}
		}
	}
}

func attr(el xml.StartElement, local string) string {
	for _, a := range el.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// docxWalker collects a Word body's text: w:t in runs, with w:tab and
// w:br; paragraphs (w:p) with their style's heading level or list marker.
type docxWalker struct {
	levels map[string]int
	p      paras
}

// docxSkipped are elements whose text is not the document's: an
// alternative's fallback (the same text box again), field codes, deleted text.
var docxSkipped = map[string]bool{"Fallback": true, "instrText": true, "delText": true, "delInstrText": true}

// level is a paragraph style's heading level, 0 for none.
func (w *docxWalker) level(style string) int {
	if n := w.levels[style]; n > 0 {
		return n
	}
	if m := headingID.FindStringSubmatch(style); m != nil {
		return int(m[1][0] - '0')
	}
	if strings.EqualFold(style, "Title") {
		return 1
	}
	return 0
}

func (w *docxWalker) walk(d *xml.Decoder) error {
	skip, run, inText := 0, 0, false
	for !w.p.full() {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 || docxSkipped[t.Name.Local] {
				skip++
				continue
			}
			switch t.Name.Local {
			case "r":
				run++
			case "t":
				inText = run > 0
			case "tab", "br", "cr":
				if run > 0 {
					w.p.add(map[string]string{"tab": "\t", "br": "\n", "cr": "\n"}[t.Name.Local])
				}
			case "pStyle":
				w.p.heading(w.level(attr(t, "val")))
			case "outlineLvl":
				if n, err := strconv.Atoi(attr(t, "val")); err == nil && n < 9 {
					w.p.heading(n + 1)
				}
			case "numPr":
				w.p.item()
			}
		case xml.EndElement:
			switch {
			case skip > 0:
				skip--
			case t.Name.Local == "r":
				run = max(run-1, 0)
			case t.Name.Local == "t":
				inText = false
			case t.Name.Local == "p":
				w.p.end()
			}
		case xml.CharData:
			if inText && skip == 0 {
				w.p.add(string(t))
			}
		}
	}
	return nil
}

// readODT reads an OpenDocument text's body (content.xml).
func readODT(name string, data []byte) (content, error) {
	zr, err := openZip(data)
	if err != nil {
		return content{}, notDocument(name, "ODT", err)
	}
	f := zipFile(zr, "content.xml")
	if f == nil {
		return content{}, notDocument(name, "ODT", errors.New("it has no content.xml"))
	}
	var p paras
	if err := readPart(name, "ODT", f, func(d *xml.Decoder) error { return walkODT(d, &p) }); err != nil {
		return content{}, err
	}
	return content{text: p.text()}, nil
}

// odtSkipped: elements whose text is not the body's: notes (footnotes and
// endnotes), comments, deleted tracked changes, a drawing's title and
// description.
func odtSkipped(n xml.Name) bool {
	switch n.Local {
	case "note", "annotation", "tracked-changes":
		return true
	case "title", "desc":
		return strings.Contains(n.Space, "svg")
	}
	return false
}

// walkODT collects the text of text:p and text:h (at their outline level),
// white space collapsed as ODF says, text:s, text:tab and text:line-break
// as the spaces, tab and line end they stand for.
func walkODT(d *xml.Decoder, p *paras) error {
	skip, para, item := 0, 0, false
	for !p.full() {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 || odtSkipped(t.Name) {
				skip++
				continue
			}
			switch t.Name.Local {
			case "p", "h":
				para++
				if t.Name.Local == "h" {
					n, err := strconv.Atoi(attr(t, "outline-level"))
					if err != nil || n < 1 {
						n = 1
					}
					p.heading(n)
				}
				if item {
					p.item()
					item = false
				}
			case "list-item":
				item = true
			case "s":
				n, err := strconv.Atoi(attr(t, "c"))
				if err != nil || n < 1 {
					n = 1
				}
				p.add(strings.Repeat(" ", min(n, 100)))
			case "tab":
				p.add("\t")
			case "line-break":
				p.add("\n")
			}
		case xml.EndElement:
			switch {
			case skip > 0:
				skip--
			case t.Name.Local == "p" || t.Name.Local == "h":
				para = max(para-1, 0)
				p.end()
			}
		case xml.CharData:
			if para > 0 && skip == 0 {
				p.addCollapsed(string(t))
			}
		}
	}
	return nil
}
