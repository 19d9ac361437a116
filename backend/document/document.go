// Package document reads the files a user attaches to a message: plain text,
// Markdown, source code and CSV as they are, PDF through its text layer, and
// images (PNG, JPEG, WebP, GIF) downscaled for a vision model (image.go). It
// only turns bytes into text or a smaller image; storing them with the message
// (session) and fitting them into the prompt (prompt) happen elsewhere.
package document

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Kinds of document.
const (
	KindText     = "text"
	KindMarkdown = "markdown"
	KindCode     = "code"
	KindCSV      = "csv"
	KindPDF      = "pdf"
)

// Limits: the file as attached, and the text taken from it.
const (
	MaxBytes = 10 << 20 // 10 MiB
	MaxChars = 400_000  // about 100k tokens of English
)

// Supported names the kinds in the words a user reads.
const Supported = "text, Markdown, code, CSV and PDF files, and PNG, JPEG, WebP and GIF images"

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
	return NewRefusal(reason, name, params, kind, fmt.Sprintf(format, args...))
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

// Doc is an attached file's text, or (Kind KindImage) its image.
type Doc struct {
	Name string
	Kind string
	Text string
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
	".pdf": KindPDF,
	".png": KindImage, ".jpg": KindImage, ".jpeg": KindImage, ".webp": KindImage, ".gif": KindImage,
}

var codeExt = strings.Fields(`.go .py .js .mjs .cjs .ts .tsx .jsx .svelte .vue .java .kt .kts .scala .c .h .cc .cpp .cxx
	.hpp .cs .rs .rb .php .pl .lua .r .swift .m .sh .bash .zsh .fish .ps1 .bat .sql .json .jsonl .yaml .yml .toml .ini
	.cfg .conf .xml .html .htm .css .scss .less .proto .graphql .dockerfile .mk .cmake .gradle .ipynb .env .diff .patch`)

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
// Extract runs the format's parser in this process: a PDF or an image is given
// to it only inside the cage (package cage), where a crash, a hang or a memory
// bomb in the parser costs a child process; NeedsParser says which files those are.
func Extract(name string, data []byte) (Doc, error) {
	name = Name(name)
	if IsImage(name, data) {
		return extractImage(name, data)
	}
	if err := CheckSize(name, len(data)); err != nil {
		return Doc{}, err
	}
	kind := KindOf(name)
	var text string
	if NeedsParser(name, data) {
		kind = KindPDF
		t, err := pdfText(data)
		if err != nil {
			return Doc{}, refuse(RefusedNotPDF, name, map[string]string{"detail": err.Error()},
				ErrUnsupported, "%q could not be read as a PDF (%v); Hermes can attach %s", name, err, Supported)
		}
		text = t
	} else {
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
		if !isText(data) {
			return Doc{}, refuse(RefusedNotText, name, nil, ErrUnsupported, "%q is not a text file; Hermes can attach %s (UTF-8 text)", name, Supported)
		}
		if kind == "" {
			kind = KindText
		}
		text = string(data)
	}
	text = normalize(text)
	if strings.TrimSpace(text) == "" {
		if kind == KindPDF {
			return Doc{}, refuse(RefusedNoTextLayer, name, nil, ErrNoText, "%q has no text layer (a scanned PDF?); Hermes reads the text of PDFs, not images", name)
		}
		return Doc{}, refuse(RefusedEmpty, name, nil, ErrNoText, "%q is empty", name)
	}
	if n := utf8.RuneCountInString(text); n > MaxChars {
		return Doc{}, refuse(RefusedTooLong, name, map[string]string{"chars": strconv.Itoa(n), "limit": strconv.Itoa(MaxChars)},
			ErrTooLarge, "%q has %d characters of text; documents up to %d characters can be attached", name, n, MaxChars)
	}
	return Doc{Name: name, Kind: kind, Text: text}, nil
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
// structure (a PDF or an image, by its name or its header), which belongs in
// the cage; the rest is read as UTF-8 text, which no file can make crash or hang.
func NeedsParser(name string, data []byte) bool {
	return KindOf(name) == KindPDF || bytes.HasPrefix(data, []byte("%PDF-")) || IsImage(name, data)
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

// pdfText is the text layer of a PDF, page by page. The reader is given
// untrusted bytes: a panic in it is an unreadable file.
func pdfText(data []byte) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("malformed file")
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		t, err := p.GetPlainText(nil)
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimRight(t, " \n"))
		if i < r.NumPage() {
			b.WriteString("\n")
		}
		if b.Len() > MaxChars*4 {
			break
		}
	}
	return b.String(), nil
}

func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", (n+1023)>>10)
}
