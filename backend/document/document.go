// Package document reads the files a user attaches to a message or adds to the
// knowledge base: plain text, Markdown, source code and CSV as they are, PDF
// through its text layer (pdf.go), Word (DOCX) and OpenDocument (ODT) files
// (office.go), web pages (HTML, html.go) as readable text, and images (PNG,
// JPEG, WebP, GIF) downscaled for a vision model (image.go). ExtractText, the
// knowledge base's entry, reads images (TIFF too) and scanned PDF pages by text
// recognition instead (ocr.go). It only turns bytes into text or a smaller
// image; storing them (session, the knowledge base) and fitting them into the
// prompt (prompt) happen elsewhere.
package document

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kinds of document.
const (
	KindText     = "text"
	KindMarkdown = "markdown"
	KindCode     = "code"
	KindCSV      = "csv"
	KindPDF      = "pdf"
	KindHTML     = "html" // a web page, read as text with its headings as Markdown
	KindDOCX     = "docx" // a Word document (Office Open XML)
	KindODT      = "odt"  // an OpenDocument text
)

// Limits: the file as attached, and the text taken from it.
const (
	MaxBytes = 10 << 20 // 10 MiB
	MaxChars = 400_000  // about 100k tokens of English
)

// Supported names the kinds in the words a user reads.
const Supported = "text, Markdown, code, CSV and PDF files, Word (DOCX) and OpenDocument (ODT) documents, web pages (HTML), and PNG, JPEG, WebP and GIF images"

var (
	// ErrUnsupported is a file that is not one of the supported kinds.
	ErrUnsupported = errors.New("unsupported document")
	// ErrTooLarge is a file or text over the limits.
	ErrTooLarge = errors.New("document too large")
	// ErrNoText is a readable file with no text in it (an empty file, a scanned PDF).
	ErrNoText = errors.New("document has no text")
)

// Reasons a file is refused (Refusal.Reason).
const (
	RefusedTooBig      = "too_big"       // params: size, limit
	RefusedTooLong     = "too_long"      // params: chars, limit
	RefusedNotPDF      = "not_pdf"       // params: detail
	RefusedNotText     = "not_text"      // no params
	RefusedNoTextLayer = "no_text_layer" // no params
	RefusedEmpty       = "empty"         // no params
	// A reader that ran out of its cage's limits or died (package cage).
	RefusedTooMuchMemory = "too_much_memory" // params: limit
	RefusedTooSlow       = "too_slow"        // params: limit
	RefusedReaderFailed  = "reader_failed"   // params: detail
	// A DOCX or ODT file that is not one (office.go).
	RefusedNotDocument    = "not_document"     // params: format (DOCX, ODT), detail
	RefusedUnpackedTooBig = "unpacked_too_big" // params: limit (of one part unpacked, "64 MB")
	// Text recognition (ExtractText, ocr.go).
	RefusedNoOCR            = "no_ocr"             // params: package (the Debian package to install)
	RefusedOCRFailed        = "ocr_failed"         // params: page, detail
	RefusedNoTextRecognised = "no_text_recognised" // no params
	RefusedTooManyPages     = "too_many_pages"     // params: pages, limit
)

// Refusal is a file Extract refused: why (a Refused* reason), the file's name and
// the figures its English message names, so that a UI can say it in its own
// language. errors.Is finds ErrUnsupported, ErrTooLarge or ErrNoText through it.
type Refusal struct {
	Reason string
	Name   string
	Params map[string]string
	kind   error // ErrUnsupported, ErrTooLarge or ErrNoText
	msg    string
}

func (r *Refusal) Error() string { return r.kind.Error() + ": " + r.msg }
func (r *Refusal) Unwrap() error { return r.kind }

// Message is the refusal in English without its kind.
func (r *Refusal) Message() string { return r.msg }

// NewRefusal is a refusal made outside Extract (a reader the cage stopped, or
// one read back from the cage): kind is ErrUnsupported, ErrTooLarge or ErrNoText.
func NewRefusal(reason, name string, params map[string]string, kind error, msg string) *Refusal {
	return &Refusal{Reason: reason, Name: name, Params: params, kind: kind, msg: msg}
}

func refuse(reason, name string, params map[string]string, kind error, format string, args ...any) error {
	return NewRefusal(reason, name, params, kind, strings.Map(noControl, fmt.Sprintf(format, args...)))
}

// detail is a reader's error as a refusal quotes it: on one line and short,
// since it may quote the file.
func detail(err error) string {
	s := strings.Map(noControl, strings.ToValidUTF8(err.Error(), "\uFFFD"))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

func noControl(r rune) rune {
	if unicode.IsControl(r) {
		return ' '
	}
	return r
}

// Kinds names the refusal kinds for a wire format (package cage).
var Kinds = map[string]error{"unsupported": ErrUnsupported, "too_large": ErrTooLarge, "no_text": ErrNoText}

// KindName is the name Kinds gives the refusal's kind.
func (r *Refusal) KindName() string {
	for n, k := range Kinds {
		if k == r.kind {
			return n
		}
	}
	return "unsupported"
}

// Doc is a file's text, or (Kind KindImage, from Extract) its image.
type Doc struct {
	Name string
	Kind string
	Text string
	// Pages, for a paged file (a PDF; a TIFF read by ExtractText), is where
	// each page begins in Text: Pages[i] is the offset in runes (characters,
	// not bytes) where page i+1 begins, so Pages[0] is 0, and offset x is on
	// page i+1 for the last i with Pages[i] <= x. A page with no text begins
	// where the next one does; the blank line between two pages ends the
	// first. Nil for kinds without pages.
	Pages []int `json:"pages,omitempty"`
	// OCR is whether some of Text was recognised in images (ExtractText).
	OCR bool `json:"ocr,omitempty"`
	// An image: Data is it downscaled and written again (JPEG, or PNG when it
	// has transparency; Mime says which), Width×Height its size in pixels,
	// and Thumb a preview of ThumbEdge pixels at most (ThumbMime).
	Data      []byte `json:"data,omitempty"`
	Mime      string `json:"mime,omitempty"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	Thumb     []byte `json:"thumb,omitempty"`
	ThumbMime string `json:"thumb_mime,omitempty"`
}

// Chars is the text's length in characters.
func (d Doc) Chars() int { return utf8.RuneCountInString(d.Text) }

var byExt = map[string]string{
	".txt": KindText, ".text": KindText, ".log": KindText, ".rst": KindText, ".org": KindText, ".tex": KindText,
	".md": KindMarkdown, ".markdown": KindMarkdown, ".mdx": KindMarkdown,
	".csv": KindCSV, ".tsv": KindCSV,
	".pdf": KindPDF, ".docx": KindDOCX, ".odt": KindODT, ".html": KindHTML, ".htm": KindHTML, ".xhtml": KindHTML,
	".png": KindImage, ".jpg": KindImage, ".jpeg": KindImage, ".webp": KindImage, ".gif": KindImage,
}

var codeExt = strings.Fields(`.go .py .js .mjs .cjs .ts .tsx .jsx .svelte .vue .java .kt .kts .scala .c .h .cc .cpp .cxx
	.hpp .cs .rs .rb .php .pl .lua .r .swift .m .sh .bash .zsh .fish .ps1 .bat .sql .json .jsonl .yaml .yml .toml .ini
	.cfg .conf .xml .css .scss .less .proto .graphql .dockerfile .mk .cmake .gradle .ipynb .env .diff .patch`)

func init() {
	for _, e := range codeExt {
		byExt[e] = KindCode
	}
}

// KindOf is the kind a file name suggests: "" for an unknown extension (read as
// text when its bytes are text).
func KindOf(name string) string {
	base := strings.ToLower(filepath.Base(name))
	switch base {
	case "makefile", "dockerfile", "readme", "license", "changelog":
		return KindCode
	}
	return byExt[filepath.Ext(base)]
}

// Extract reads a file's text, or an image (IsImage) as extractImage says. A
// binary file, an oversized one and one with no text are refused with an
// error that says what can be attached.
//
// Extract runs the format's parser in this process: a PDF, an image, a DOCX,
// ODT or HTML file is given to it only inside the cage (package cage), where a
// crash, a hang or a memory bomb in the parser costs a child process;
// NeedsParser says which files those are.
func Extract(name string, data []byte) (Doc, error) {
	return extract(Name(name), data, nil)
}

// extract is Extract, or ExtractText when t is not nil.
func extract(name string, data []byte, t *textRun) (Doc, error) {
	kind := parserKind(name, data)
	if t != nil && (kind == KindImage || kind == kindTIFF) {
		return t.image(name, data, kind)
	}
	if kind == KindImage {
		return extractImage(name, data)
	}
	if err := CheckSize(name, len(data)); err != nil {
		return Doc{}, err
	}
	var c content
	var err error
	switch kind {
	case KindPDF:
		c, err = readPDF(name, data, t)
	case KindDOCX:
		c, err = readDOCX(name, data)
	case KindODT:
		c, err = readODT(name, data)
	case KindHTML:
		c, err = readHTML(data)
	default:
		kind, c, err = readPlain(name, data)
	}
	if err != nil {
		return Doc{}, err
	}
	return finish(name, kind, c)
}

// content is a reader's text, with where its pages begin (paged kinds, whose
// text the reader normalized page by page) and whether some was recognised.
type content struct {
	text  string
	pages []int
	ocr   bool
}

// readPlain reads UTF-8 text as it is: its kind is the name's, or text.
func readPlain(name string, data []byte) (string, content, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	if !isText(data) {
		return "", content{}, refuse(RefusedNotText, name, nil, ErrUnsupported, "%q is not a text file; Hermes can attach %s (UTF-8 text)", name, Supported)
	}
	kind := KindOf(name)
	if kind == "" {
		kind = KindText
	}
	return kind, content{text: string(data)}, nil
}

// finish is the document of a reader's text: refused when it has none or too much.
func finish(name, kind string, c content) (Doc, error) {
	if c.pages == nil {
		c.text = normalize(c.text)
	}
	if strings.TrimSpace(c.text) == "" {
		switch {
		case c.ocr:
			return Doc{}, refuse(RefusedNoTextRecognised, name, nil, ErrNoText, "no text was recognised in %q", name)
		case kind == KindPDF:
			return Doc{}, refuse(RefusedNoTextLayer, name, nil, ErrNoText, "%q has no text layer (a scanned PDF?); Hermes reads the text of PDFs, not images", name)
		}
		return Doc{}, refuse(RefusedEmpty, name, nil, ErrNoText, "%q is empty", name)
	}
	if n := utf8.RuneCountInString(c.text); n > MaxChars {
		return Doc{}, tooLong(name, strconv.Itoa(n))
	}
	return Doc{Name: name, Kind: kind, Text: c.text, Pages: c.pages, OCR: c.ocr}, nil
}

func tooLong(name, chars string) error {
	return refuse(RefusedTooLong, name, map[string]string{"chars": chars, "limit": strconv.Itoa(MaxChars)},
		ErrTooLarge, "%q has %s characters of text; documents up to %d characters can be attached", name, chars, MaxChars)
}

// Name is the file name a document is shown and refused by.
func Name(name string) string {
	name = filepath.Base(strings.TrimSpace(name))
	if name == "" || name == "." || name == "/" {
		return "document"
	}
	return name
}

// CheckSize refuses a file over MaxBytes before anything reads it (CheckFile
// knows an image's own limit).
func CheckSize(name string, n int) error {
	if n > MaxBytes {
		return refuse(RefusedTooBig, name, map[string]string{"size": size(n), "limit": size(MaxBytes)},
			ErrTooLarge, "%q is %s; files up to %s can be attached", name, size(n), size(MaxBytes))
	}
	return nil
}

// NeedsParser is whether reading the file runs a format parser over untrusted
// structure (a PDF, an image, a DOCX, ODT or HTML file, by its name or its
// header), which belongs in the cage; the rest is read as UTF-8 text, which no
// file can make crash or hang.
func NeedsParser(name string, data []byte) bool { return parserKind(name, data) != "" }

// kindTIFF is a TIFF image, which only ExtractText reads (by recognition).
const kindTIFF = "tiff"

// parserKind is the kind of a file read by a parser: by its header first (an
// image, a TIFF, a PDF, a DOCX or ODT zip), then by its name; "" for text.
func parserKind(name string, data []byte) string {
	switch {
	case imageFormat(data) != "":
		return KindImage
	case isTIFF(data):
		return kindTIFF
	case bytes.HasPrefix(data, []byte("%PDF-")):
		return KindPDF
	}
	if k := zipKind(data); k != "" {
		return k
	}
	switch k := KindOf(name); k {
	case KindImage, KindPDF, KindDOCX, KindODT, KindHTML:
		return k
	}
	if ext := strings.ToLower(filepath.Ext(name)); ext == ".tif" || ext == ".tiff" {
		return kindTIFF
	}
	return ""
}

// isText: valid UTF-8 with no NUL bytes and few control characters.
func isText(b []byte) bool {
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			ctl++
		}
	}
	return ctl*100 <= len(b)
}

// normalize makes line ends \n and trims trailing space on the whole.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.TrimRight(s, " \t\n\f")
	for strings.HasPrefix(s, "\n") || strings.HasPrefix(s, " \n") {
		s = strings.TrimLeft(strings.TrimPrefix(s, " "), "\n")
	}
	return s
}

func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", (n+1023)>>10)
}
