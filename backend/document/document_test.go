package document

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"hermes/backend/document/documenttest"
)

func TestExtract(t *testing.T) {
	pdf := documenttest.MinimalPDF([]string{"Quarterly report: the boiler was serviced in March.", "Invoice total 420 EUR."}, []string{"Second page about the garden."})
	cases := []struct {
		name, file string
		data       []byte
		kind       string
		want       []string
	}{
		{"text", "notes.txt", []byte("first line\r\nsecond line\n\n"), KindText, []string{"first line\nsecond line"}},
		{"markdown", "README.md", []byte("# Title\n\n- item\n"), KindMarkdown, []string{"# Title\n\n- item"}},
		{"code", "main.go", []byte("package main\n\nfunc main() {}\n"), KindCode, []string{"func main() {}"}},
		{"csv", "data.csv", []byte("\xef\xbb\xbfname,amount\nboiler,420\n"), KindCSV, []string{"name,amount\nboiler,420"}},
		{"unknown extension read as text", "notes.weird", []byte("plain words 中文"), KindText, []string{"plain words 中文"}},
		{"pdf", "report.pdf", pdf, KindPDF, []string{"Quarterly report", "boiler was serviced in March", "Invoice total 420 EUR", "Second page about the garden"}},
		{"pdf by its header", "scan.bin", pdf, KindPDF, []string{"Quarterly report"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Extract(c.file, c.data)
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind != c.kind {
				t.Errorf("kind = %q, want %q", d.Kind, c.kind)
			}
			for _, w := range c.want {
				if !strings.Contains(d.Text, w) {
					t.Errorf("text %q lacks %q", d.Text, w)
				}
			}
		})
	}
}

func TestExtractRefuses(t *testing.T) {
	big := bytes.Repeat([]byte("a"), MaxBytes+1)
	long := bytes.Repeat([]byte("word "), MaxChars/5+10)
	cases := []struct {
		name, file string
		data       []byte
		err        error
		says       string
	}{
		{"binary", "data.bin", []byte("\x00\x01\x02binary\x00"), ErrUnsupported, "text, Markdown, code, CSV and PDF"},
		{"invalid utf-8", "latin1.txt", []byte("caf\xe9 au lait"), ErrUnsupported, "not a text file"},
		{"oversize file", "big.txt", big, ErrTooLarge, "files up to 10.0 MB"},
		{"oversize text", "long.txt", long, ErrTooLarge, "characters"},
		{"empty", "empty.txt", []byte("  \n"), ErrNoText, "empty"},
		{"broken pdf", "broken.pdf", []byte("%PDF-1.4\nnot really"), ErrUnsupported, "could not be read as a PDF"},
		{"pdf without text", "scan.pdf", documenttest.MinimalPDF([]string{}), ErrNoText, "no text layer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Extract(c.file, c.data)
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			if !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), c.file) {
				t.Errorf("message %q should name the file and say %q", err, c.says)
			}
		})
	}
}
