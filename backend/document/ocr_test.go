package document

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font/opentype"

	"hermes/backend/document/documenttest"
)

// needOCR fails a test when the programs ExtractText runs are missing: setup
// installs them (build/setup/apt.sh), so their absence is a broken machine.
func needOCR(t testing.TB) {
	t.Helper()
	for _, p := range []string{"tesseract", "pdftoppm"} {
		if lookTool(p) == "" {
			t.Fatalf("%s is not installed: run `go tool task setup:apt` (tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-chi-sim, poppler-utils)", p)
		}
	}
}

// cjkFont is Noto Sans CJK SC, which setup installs (fonts-noto-cjk).
func cjkFont(t testing.TB) *opentype.Font {
	t.Helper()
	const file = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v: run `go tool task setup:apt` (fonts-noto-cjk)", err)
	}
	c, err := opentype.ParseCollection(data)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.Font(min(2, c.NumFonts()-1)) // JP, KR, SC, …
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var serviced = []string{"The boiler in building seven was serviced on 3 March.", "Invoice total: 421 EUR, paid in full."}

func wantWords(t *testing.T, text string, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Errorf("recognised %q, which lacks %q", text, w)
		}
	}
}

// turnedLeft is m turned a quarter counter-clockwise: what a camera held
// sideways stores, with EXIF orientation 6 to turn it back.
func turnedLeft(m *image.Gray) *image.Gray {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	s := image.NewGray(image.Rect(0, 0, h, w))
	for y := range w {
		for x := range h {
			s.SetGray(x, y, m.GrayAt(w-1-y, x))
		}
	}
	return s
}

// inkOnly is m as black ink on a transparent background.
func inkOnly(m *image.Gray) *image.NRGBA {
	n := image.NewNRGBA(m.Rect)
	for i, v := range m.Pix {
		n.Pix[4*i+3] = 255 - v
	}
	return n
}

func encodeGIF(m image.Image) []byte {
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Each image kind is read by recognition into text; a TIFF's pages each
// begin a page of the text.
func TestOCRImages(t *testing.T) {
	needOCR(t)
	page := documenttest.Printed(1400, 300, 32, serviced...)
	cases := []struct {
		name, file string
		data       []byte
	}{
		{"png", "scan.png", documenttest.PNG(page)},
		{"jpeg", "scan.jpg", documenttest.JPEG(page, 85)},
		{"jpeg held sideways, EXIF turns it", "phone.jpg", documenttest.WithOrientation(documenttest.JPEG(turnedLeft(page), 85), 6)},
		{"ink on transparency", "clear.png", documenttest.PNG(inkOnly(page))},
		{"gif", "scan.gif", encodeGIF(page)},
		{"tiff", "scan.tiff", documenttest.TIFF(page)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := ExtractText(c.file, c.data)
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind != KindImage || !d.OCR || d.Data != nil {
				t.Errorf("kind %s, ocr %v, %d bytes of image", d.Kind, d.OCR, len(d.Data))
			}
			wantWords(t, d.Text, "boiler", "serviced", "March", "421 EUR")
		})
	}
	two := documenttest.TIFF(page, documenttest.Printed(1400, 300, 32, "Second page: the garden pump."))
	d, err := ExtractText("fax.tif", two)
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(d.Text)
	if len(d.Pages) != 2 || d.Pages[0] != 0 || !strings.HasPrefix(string(rs[d.Pages[1]:]), "Second page") || !strings.Contains(string(rs[:d.Pages[1]]), "boiler") {
		t.Fatalf("pages %v of %q", d.Pages, d.Text)
	}
	// Attaching is as before: a TIFF is not attached, an image stays one.
	if _, err := Extract("fax.tif", two); !errors.Is(err, ErrUnsupported) {
		t.Errorf("attaching a TIFF: %v", err)
	}
	if d, err := Extract("scan.png", documenttest.PNG(page)); err != nil || d.Kind != KindImage || len(d.Data) == 0 || d.Text != "" {
		t.Errorf("attaching a PNG: %+v, %v", d.Kind, err)
	}
}

// Chinese is recognised too, without the spaces Tesseract puts between its
// characters.
func TestOCRChinese(t *testing.T) {
	needOCR(t)
	m := documenttest.PrintedIn(cjkFont(t), 1400, 300, 40, "知识库中的文件都在这台电脑上。", "扫描的文档也能搜索。")
	d, err := ExtractText("中文.png", documenttest.PNG(m))
	if err != nil {
		t.Fatal(err)
	}
	wantWords(t, d.Text, "知识库", "文件", "扫描的文档")
}

func a4(lines ...string) *image.Gray { return documenttest.Printed(1654, 2339, 30, lines...) }

// A scanned PDF's pages are rendered and recognised, each one's place in
// the text in Pages; a PDF with a text layer on some pages has only the
// others recognised.
func TestOCRScannedPDF(t *testing.T) {
	needOCR(t)
	pdf := documenttest.ScannedPDF(200, a4("Page one: the boiler was serviced."), a4("Page two: the garden pump."))
	var said []string
	d, err := ExtractTextWith("scan.pdf", pdf, TextOptions{Page: func(n, of int) { said = append(said, fmt.Sprintf("%d/%d", n, of)) }})
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(d.Text)
	if d.Kind != KindPDF || !d.OCR || len(d.Pages) != 2 || d.Pages[0] != 0 || d.Pages[1] <= 0 {
		t.Fatalf("doc %s, ocr %v, pages %v of %q", d.Kind, d.OCR, d.Pages, d.Text)
	}
	wantWords(t, string(rs[:d.Pages[1]]), "Page one", "boiler")
	wantWords(t, string(rs[d.Pages[1]:]), "Page two", "garden pump")
	if strings.Join(said, " ") != "1/2 2/2" {
		t.Errorf("progress %v", said)
	}
	if _, err := Extract("scan.pdf", pdf); !errors.Is(err, ErrNoText) {
		t.Errorf("attaching a scan: %v, want no text layer", err)
	}
	mixed := documenttest.ScannedPDF(200, "Typed page about the invoice.", a4("Scanned page about the garden pump."))
	said = nil
	d, err = ExtractTextWith("mixed.pdf", mixed, TextOptions{Page: func(n, of int) { said = append(said, fmt.Sprintf("%d/%d", n, of)) }})
	if err != nil {
		t.Fatal(err)
	}
	rs = []rune(d.Text)
	if len(d.Pages) != 2 || !d.OCR || strings.TrimSpace(string(rs[:d.Pages[1]])) != "Typed page about the invoice." || strings.Join(said, " ") != "1/1" {
		t.Fatalf("mixed: pages %v of %q, progress %v", d.Pages, d.Text, said)
	}
	wantWords(t, string(rs[d.Pages[1]:]), "Scanned page", "garden pump")
}

// Each page is read in the languages of its script: a Chinese line that
// starts with a Latin word stays Chinese (asked for English and Chinese at
// once, Tesseract read such a line as English, every character wrong), and an
// English page between two Chinese ones keeps its spaces (Chinese alone runs
// English words together).
func TestOCRScriptOfEachPage(t *testing.T) {
	needOCR(t)
	zh := chineseScan(t)
	pdf := documenttest.ScannedPDF(300, zh,
		documenttest.Printed(2400, 600, 44, "Page two: the garden pump was serviced.", "The boiler in building seven is next."), zh)
	d, err := ExtractText("mixed-script.pdf", pdf)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != 3 {
		t.Fatalf("pages %v of %q", d.Pages, d.Text)
	}
	rs := []rune(d.Text)
	for _, page := range []string{string(rs[:d.Pages[1]]), string(rs[d.Pages[2]:])} {
		wantWords(t, page, "中华民国军备局", "新加坡AOS公司", "定位为取代国军")
	}
	wantWords(t, string(rs[d.Pages[1]:d.Pages[2]]), "the garden pump was serviced", "The boiler in building")
}

// chineseScan is two lines of kb-dev's T-92 article as build/eval/kb_scan.py
// renders them (ImageMagick, Noto Sans CJK, 300 dpi), both starting with
// Latin words.
func chineseScan(t *testing.T) *image.Gray {
	f, err := os.Open("testdata/scan-zh-latin-lines.jpg")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := jpeg.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*image.Gray)
}

// Without Tesseract (or pdftoppm) a file that needs them is refused with
// the package to install; a PDF with some text layer is read without the rest.
func TestNoOCR(t *testing.T) {
	defer func(tess, render string, dirs []string) {
		tesseractProgram, pdftoppmProgram, toolDirs = tess, render, dirs
	}(tesseractProgram, pdftoppmProgram, toolDirs)
	tesseractProgram, toolDirs = "hermes-test-no-tesseract", nil
	page := documenttest.Printed(800, 200, 32, "words")
	for _, c := range []struct {
		file string
		data []byte
	}{{"scan.png", documenttest.PNG(page)}, {"scan.pdf", documenttest.ScannedPDF(200, page)}, {"fax.tif", documenttest.TIFF(page)}} {
		_, err := ExtractText(c.file, c.data)
		var ref *Refusal
		if !errors.As(err, &ref) || ref.Reason != RefusedNoOCR || ref.Params["package"] != "tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim" ||
			!strings.Contains(err.Error(), "install tesseract-ocr") {
			t.Errorf("%s: %v", c.file, err)
		}
	}
	d, err := ExtractText("mixed.pdf", documenttest.ScannedPDF(200, "Typed page.", page))
	if err != nil || d.Text != "Typed page." || d.OCR || len(d.Pages) != 2 {
		t.Errorf("mixed without OCR: %+v, %v", d, err)
	}
	tesseractProgram, pdftoppmProgram = "tesseract", "hermes-test-no-pdftoppm"
	_, err = ExtractText("scan.pdf", documenttest.ScannedPDF(200, page))
	var ref *Refusal
	if !errors.As(err, &ref) || ref.Reason != RefusedNoOCR || ref.Params["package"] != "poppler-utils" {
		t.Errorf("without pdftoppm: %v", err)
	}
}

// A picture with no text in it is refused as such; the private directory
// is gone afterwards, whatever happened.
func TestOCRNothingAndTidy(t *testing.T) {
	needOCR(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	blank := image.NewGray(image.Rect(0, 0, 600, 400))
	for i := range blank.Pix {
		blank.Pix[i] = 250
	}
	blank.SetGray(300, 200, color.Gray{})
	_, err := ExtractText("white.png", documenttest.PNG(blank))
	var ref *Refusal
	if !errors.As(err, &ref) || ref.Reason != RefusedNoTextRecognised || !errors.Is(err, ErrNoText) {
		t.Fatalf("blank page: %v", err)
	}
	if _, err := ExtractText("scan.pdf", documenttest.ScannedPDF(200, a4("some text"))); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind in the temporary directory: %v", left)
	}
	// What a killed run left (an empty directory) goes once a day old.
	stale, fresh := filepath.Join(tmp, ocrDirPrefix+"1"), filepath.Join(tmp, ocrDirPrefix+"2")
	os.Mkdir(stale, 0o700)
	os.Mkdir(fresh, 0o700)
	os.Chtimes(stale, time.Now().Add(-25*time.Hour), time.Now().Add(-25*time.Hour))
	if _, err := ExtractText("scan.png", documenttest.PNG(documenttest.Printed(800, 200, 32, "some text"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a day-old directory stays: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh directory went: %v", err)
	}
	// Not an image, or lying about its size: refused before recognition.
	if _, err := ExtractText("x.png", []byte("not a picture")); !errors.As(err, &ref) || ref.Reason != RefusedNotImage {
		t.Errorf("not an image: %v", err)
	}
	if _, err := ExtractText("x.tif", []byte("II*\x00\x08\x00\x00\x00\x00\x00")); !errors.As(err, &ref) || ref.Reason != RefusedNotImage {
		t.Errorf("a TIFF with no image: %v", err)
	}
	huge := documenttest.TIFF(image.NewGray(image.Rect(0, 0, 10, 10)))
	copy(huge[8+2+8:], []byte{0x40, 0x9c, 0, 0}) // ImageWidth 40000
	copy(huge[8+2+12+8:], []byte{0x40, 0x9c, 0, 0})
	if _, err := ExtractText("x.tif", huge); !errors.As(err, &ref) || ref.Reason != RefusedTooManyPixels {
		t.Errorf("a TIFF claiming 40000×40000: %v", err)
	}
}

// cjk text: Tesseract's spaces between Chinese characters go, others stay.
func TestJoinCJK(t *testing.T) {
	for in, want := range map[string]string{
		"知 识 库 , 中 文 。":    "知识库 , 中文。",
		"Hermes 是 一 个 助 手": "Hermes 是一个助手",
		"plain words":      "plain words",
		"中文 English 中文":    "中文 English 中文",
	} {
		if got := joinCJK(in); got != want {
			t.Errorf("joinCJK(%q) = %q, want %q", in, got, want)
		}
	}
}

// A Chinese paragraph wrapped at the page's edge is one run again; a blank
// line, and a break beside Latin text, stay.
func TestJoinCJKLines(t *testing.T) {
	for in, want := range map[string]string{
		"北京大\n学位于海淀区。\n\n第二段": "北京大学位于海淀区。\n\n第二段",
		"Hermes\n是一个助手":       "Hermes\n是一个助手",
		"中文\nEnglish":         "中文\nEnglish",
		"line one\nline two":  "line one\nline two",
	} {
		if got := joinCJKLines(in); got != want {
			t.Errorf("joinCJKLines(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkOCRPage is one scanned A4 page (200 dpi, 40 lines of 11-point
// text) through ExtractText, rendering and recognition included, in English
// and in Chinese: pages/min is what a knowledge base reads scans at on one core.
func BenchmarkOCRPage(b *testing.B) {
	needOCR(b)
	en := documenttest.Lines(40)
	zh := make([]string, 40)
	for i := range zh {
		zh[i] = "知识库中的文件都在这台电脑上扫描的文档也能搜索"[i%5*3:] + "第" + fmt.Sprint(i+1) + "行。"
	}
	for _, c := range []struct {
		name string
		page *image.Gray
	}{{"lang=en", a4(en...)}, {"lang=zh", documenttest.PrintedIn(cjkFont(b), 1654, 2339, 30, zh...)}} {
		pdf := documenttest.ScannedPDF(200, c.page)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ExtractText("page.pdf", pdf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*60/b.Elapsed().Seconds(), "pages/min")
		})
	}
}

// Tesseract's ASCII marks beside Chinese become the full-width ones Chinese
// text uses; marks in English stay as they are.
func TestFullWidthMarks(t *testing.T) {
	got := fullWidth("常规赛成绩较优的波士顿凯尔特人 (66-16) 将获得 , 系列赛 ; 好 ? It is (fine), ok. 保罗 .皮尔斯得了 3.5 分. 汉斯.戴尔特")
	want := "常规赛成绩较优的波士顿凯尔特人（66-16）将获得，系列赛；好？It is (fine), ok. 保罗·皮尔斯得了 3.5 分. 汉斯·戴尔特"
	if got != want {
		t.Fatalf("fullWidth = %q, want %q", got, want)
	}
}
