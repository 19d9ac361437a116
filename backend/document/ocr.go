package document

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/tiff"

	"hermes/backend/document/internal/fastjpeg"
	"hermes/backend/proc"
)

// Text recognition (OCR) for ExtractText. Tesseract (Debian's tesseract-ocr,
// with its English and simplified Chinese data) reads images, and poppler's
// pdftoppm (poppler-utils) renders for it the PDF pages that have no text
// layer. Both run as child processes of this one, so under its limits (in
// the cage: its address-space limit as the figure the cage's child set, its
// CPU-time limit anew for each program), on one thread (OMP_THREAD_LIMIT=1),
// with no other environment, in a private temporary directory removed
// afterwards, and killed if this process dies (the parent-death signal). The
// file reaches them as a descriptor whose name is already gone, so no copy of
// it stays on disk. A PNG, JPEG, WebP or GIF image is decoded here (its pixel
// count checked first, a JPEG turned upright, transparency laid on white) and
// handed to Tesseract as 8-bit gray; a TIFF's pages, each one's size checked
// here, are read by Tesseract one at a time.

// OCR limits and settings.
const (
	// MaxOCRPages is the most pages of one file recognised: a PDF's pages
	// without a text layer, or a TIFF's pages.
	MaxOCRPages = 500
	// OCRDPI is the resolution a PDF page is rendered at for recognition, a
	// scanner's usual one: 10-point text is about 42 pixels high then. At 200
	// dpi Chinese lost characters (Tesseract read 96 % of a page's characters
	// right, against 99.5 % at 300; build/eval/kb_scan.py's pages).
	OCRDPI = 300
	// ocrEdge is the long edge in pixels beyond which an image is scaled
	// down before recognition, and a PDF page rendered at a lower resolution
	// (A4 at 600 dpi is 7016 pixels long).
	ocrEdge = 7000
)

// OCRLanguages are the languages Tesseract is asked for, those of them that
// are installed (tesseract --list-langs).
var OCRLanguages = []string{"eng", "chi_sim"}

// The programs run (a test names one that is missing), looked up on PATH or,
// where there is none (the cage's child has no environment), in toolDirs.
var (
	tesseractProgram = "tesseract"
	pdftoppmProgram  = "pdftoppm"
	toolDirs         = []string{"/usr/bin", "/usr/local/bin", "/bin", "/opt/homebrew/bin", "/opt/local/bin"}
)

// Debian packages named by a RefusedNoOCR refusal.
const (
	ocrPackages    = "tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim"
	renderPackages = "poppler-utils"
)

// TextOptions are ExtractTextWith's.
type TextOptions struct {
	// Page, when set, is told as the recognition of each page begins: the
	// n-th (from 1) of the pages to recognise.
	Page func(n, of int)
	// The limits the programs run under (the cage's), for a refusal's words;
	// zero when unknown.
	CPU    time.Duration
	Memory int64
}

// ExtractText reads a file for the knowledge base. It is Extract, except
// that an image (PNG, JPEG, TIFF, WebP, GIF) is read by text recognition
// into text (Kind KindImage, OCR set; a TIFF's Pages too), and that a PDF's
// pages with no text layer are rendered and recognised (OCR set). Without
// Tesseract (or pdftoppm, for a PDF) a file that needs them is refused
// (RefusedNoOCR), except a PDF with some text layer, which is read without
// its other pages. Like Extract, it belongs in the cage (NeedsParser).
func ExtractText(name string, data []byte) (Doc, error) {
	return ExtractTextWith(name, data, TextOptions{})
}

// ExtractTextWith is ExtractText with options (the cage's child uses them).
func ExtractTextWith(name string, data []byte, o TextOptions) (Doc, error) {
	t := &textRun{opt: o, name: Name(name)}
	defer t.close()
	return extract(t.name, data, t)
}

// textRun is one ExtractText: its options and, once recognition is needed,
// the programs, the languages and the private directory.
type textRun struct {
	opt                 TextOptions
	name                string
	tesseract, pdftoppm string
	langs               string // as -l takes them: eng+chi_sim
	script              scripts
	dir                 string
	input               *os.File // the file for a program to read (as inputPath), its name gone
}

// inputPath is where a program reads the file: the descriptor it inherits
// (ExtraFiles), so that no copy of the user's file has a name on disk, even
// if this process is killed.
const inputPath = "/dev/fd/3"

func (t *textRun) close() {
	if t.input != nil {
		t.input.Close()
	}
	if t.dir != "" {
		os.RemoveAll(t.dir)
	}
}

// start finds Tesseract and its languages (and pdftoppm for a PDF) and makes
// the private directory, once.
func (t *textRun) start(pdf bool) error {
	if t.tesseract == "" {
		path := lookTool(tesseractProgram)
		if path == "" {
			return t.noOCR(ocrPackages, "Tesseract is not installed")
		}
		dir, err := os.MkdirTemp("", ocrDirPrefix)
		if err != nil {
			return fmt.Errorf("ocr: make a private directory: %w", err)
		}
		sweepStale(dir)
		t.tesseract, t.dir = path, dir
		have, err := t.languages()
		if err != nil {
			return err
		}
		var langs []string
		for _, l := range OCRLanguages {
			if have[l] {
				langs = append(langs, l)
			}
		}
		if len(langs) == 0 {
			return t.noOCR("tesseract-ocr-eng tesseract-ocr-chi-sim", "Tesseract has no English or Chinese language data")
		}
		t.langs = strings.Join(langs, "+")
		t.script = scriptsFor(have)
	}
	if pdf && t.pdftoppm == "" {
		if t.pdftoppm = lookTool(pdftoppmProgram); t.pdftoppm == "" {
			return t.noOCR(renderPackages, "pdftoppm is not installed")
		}
	}
	return nil
}

const ocrDirPrefix = "hermes-ocr-"

// sweepStale removes the private directories that runs killed on the way
// left (empty: the file in one never has a name for long), once a day old,
// longer than any run lasts.
func sweepStale(keep string) {
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(keep), ocrDirPrefix+"*"))
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && d != keep && fi.IsDir() && time.Since(fi.ModTime()) > 24*time.Hour {
			os.Remove(d) // only an empty one goes
		}
	}
}

func (t *textRun) noOCR(pkg, why string) error {
	return refuse(RefusedNoOCR, t.name, map[string]string{"package": pkg}, ErrUnsupported,
		"%q needs text recognition, and %s; install %s (Debian: sudo apt-get install %s)", t.name, why, pkg, pkg)
}

// lookTool is a program's path, "" when it is not installed.
func lookTool(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if filepath.IsAbs(name) {
		return ""
	}
	for _, d := range toolDirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// languages are those Tesseract has data for.
func (t *textRun) languages() (map[string]bool, error) {
	cmd := t.helper(t.tesseract, "--list-langs")
	out := &limited{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out // Tesseract 4 lists them on stderr
	if err := runLocked(cmd); err != nil {
		return nil, fmt.Errorf("ocr: tesseract --list-langs: %w", err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(out.String(), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	return have, nil
}

// helper is a program run for recognition: one thread, no environment but
// its temporary directory, in that directory, killed when this process dies.
func (t *textRun) helper(path string, args ...string) *exec.Cmd {
	cmd := exec.Command(path, args...)
	cmd.Env = []string{"OMP_THREAD_LIMIT=1", "TMPDIR=" + t.dir}
	cmd.Dir = t.dir
	proc.Prepare(cmd)
	cmd.WaitDelay = time.Second
	return cmd
}

// runLocked runs a helper (proc.Run: from a locked thread, which the
// parent-death signal follows).
func runLocked(cmd *exec.Cmd) error { return proc.Run(cmd, nil) }

// writeInput writes the file for a program to read (inputPath): into the
// private directory, opened, its name removed at once.
func (t *textRun) writeInput(data []byte) error {
	if t.input != nil {
		return nil
	}
	p := filepath.Join(t.dir, "input")
	err := os.WriteFile(p, data, 0o600)
	if err == nil {
		t.input, err = os.Open(p)
	}
	os.Remove(p)
	if err != nil {
		return fmt.Errorf("ocr: write the file for recognition: %w", err)
	}
	return nil
}

// reads makes cmd a reader of the file at inputPath.
func (t *textRun) reads(cmd *exec.Cmd) *exec.Cmd {
	cmd.ExtraFiles = []*os.File{t.input}
	return cmd
}

func (t *textRun) page(n, of int) {
	if t.opt.Page != nil {
		t.opt.Page(n, of)
	}
}

func (t *textRun) tooManyPages(n int) error {
	return refuse(RefusedTooManyPages, t.name, map[string]string{"pages": strconv.Itoa(n), "limit": strconv.Itoa(MaxOCRPages)},
		ErrTooLarge, "%q has %d pages to recognise; Hermes recognises up to %d pages of a file", t.name, n, MaxOCRPages)
}

// image reads an image by recognition: a TIFF page by page, any other as one page.
func (t *textRun) image(name string, data []byte, kind string) (doc Doc, err error) {
	if err := checkImageSize(name, len(data)); err != nil {
		return Doc{}, err
	}
	if len(data) == 0 {
		return Doc{}, refuse(RefusedEmpty, name, nil, ErrNoText, "%q is empty", name)
	}
	defer func() { // the decoders are given untrusted bytes: a panic is an unreadable file
		if r := recover(); r != nil {
			doc, err = Doc{}, notImage(name, errors.New("malformed file"))
		}
	}()
	var c content
	if kind == kindTIFF {
		c, err = t.tiff(data)
	} else {
		c, err = t.picture(data)
	}
	if err != nil {
		return Doc{}, err
	}
	c.ocr = true
	return finish(name, KindImage, c)
}

// picture recognises a PNG, JPEG, WebP or GIF image (a GIF's first frame).
func (t *textRun) picture(data []byte) (content, error) {
	format := imageFormat(data)
	if format == "" {
		return content{}, notImage(t.name, errors.New("not a PNG, JPEG, TIFF, WebP or GIF file"))
	}
	m, err := decodeChecked(t.name, data, format, ocrEdge)
	if err != nil {
		return content{}, err
	}
	g := grayPage(m)
	if format == "jpeg" {
		g = orient(g, fastjpeg.Orientation(data)).(*image.Gray)
	}
	if err := t.start(false); err != nil {
		return content{}, err
	}
	t.page(1, 1)
	text, err := t.recognise(func() io.Reader { return pgm(g) }, 1, "stdin")
	return content{text: text}, err
}

// tiff recognises a TIFF's pages, each one's size checked first.
func (t *textRun) tiff(data []byte) (content, error) {
	order, dirs, err := tiffPages(data)
	if err != nil {
		return content{}, notImage(t.name, err)
	}
	if len(dirs) > MaxOCRPages {
		return content{}, t.tooManyPages(len(dirs))
	}
	for _, d := range dirs {
		cfg, err := tiff.DecodeConfig(&tiffPage{data: data, dir: d, order: order})
		if err != nil {
			return content{}, notImage(t.name, err)
		}
		if err := checkPixels(t.name, cfg); err != nil {
			return content{}, err
		}
	}
	if err := t.start(false); err != nil {
		return content{}, err
	}
	if err := t.writeInput(data); err != nil {
		return content{}, err
	}
	texts, total := make([]string, len(dirs)), 0
	for i := range dirs {
		t.page(i+1, len(dirs))
		s, err := t.recognise(nil, i+1, inputPath, "-c", "tessedit_page_number="+strconv.Itoa(i))
		if err != nil {
			return content{}, err
		}
		texts[i] = s
		if total += utf8.RuneCountInString(s); total > MaxChars {
			break // refused as too long
		}
	}
	return joinPages(texts), nil
}

// pdf recognises the pages of a PDF that have no text layer (texts, sizes:
// each page's, from pdfPages).
func (t *textRun) pdf(data []byte, texts []string, sizes []pageSize) (content, error) {
	var blank []int
	total := 0
	for i, s := range texts {
		if strings.TrimSpace(s) == "" {
			blank = append(blank, i)
		}
		total += utf8.RuneCountInString(s)
	}
	if len(blank) == 0 {
		return joinPages(texts), nil
	}
	if len(blank) > MaxOCRPages {
		return content{}, t.tooManyPages(len(blank))
	}
	if err := t.start(true); err != nil {
		var r *Refusal
		if errors.As(err, &r) && r.Reason == RefusedNoOCR && len(blank) < len(texts) {
			return joinPages(texts), nil // the pages with a text layer; the others needed recognition
		}
		return content{}, err
	}
	if err := t.writeInput(data); err != nil {
		return content{}, err
	}
	for k, i := range blank {
		t.page(k+1, len(blank))
		s, err := t.pdfPage(i+1, renderDPI(sizes[i]))
		if err != nil {
			return content{}, err
		}
		texts[i] = s
		if total += utf8.RuneCountInString(s); total > MaxChars {
			break // refused as too long
		}
	}
	c := joinPages(texts)
	c.ocr = true
	return c, nil
}

// renderDPI is OCRDPI, or less for a page whose long edge would be past ocrEdge.
func renderDPI(s pageSize) int {
	long := max(s.w, s.h)
	if long <= 0 {
		return OCRDPI
	}
	return max(1, min(OCRDPI, int(ocrEdge*72/long)))
}

// pdfPage renders page n (from 1) of the PDF in gray at dpi, into memory
// (the page's script is read from it before its text), and recognises it.
func (t *textRun) pdfPage(n, dpi int) (string, error) {
	page, res := strconv.Itoa(n), strconv.Itoa(dpi)
	render := t.reads(t.helper(t.pdftoppm, "-r", res, "-gray", "-f", page, "-l", page, inputPath))
	img, renderErr := &limited{max: ocrEdge*ocrEdge + 64}, &limited{max: 4 << 10}
	render.Stdout, render.Stderr = img, renderErr
	if err := runLocked(render); err != nil || memoryWords(renderErr.String()) {
		return "", t.failed("pdftoppm", n, err, renderErr.String())
	}
	return t.recognise(func() io.Reader { return bytes.NewReader(img.buf.Bytes()) }, n, "stdin", "--dpi", res)
}

// tesseractCmd is Tesseract reading input ("stdin" or a file) with args
// (languages, page segmentation, resolution), writing its text to out.
func (t *textRun) tesseractCmd(input string, args ...string) (cmd *exec.Cmd, out, stderr *limited) {
	cmd = t.helper(t.tesseract, append([]string{input, "stdout"}, args...)...)
	out, stderr = &limited{max: MaxChars*4 + 1}, &limited{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, stderr
	return cmd, out, stderr
}

// recognise runs Tesseract over one image: image() on stdin (input
// "stdin"), or the file (inputPath), in the languages of the page's script
// (ocrscript.go). page is its number, for a refusal.
func (t *textRun) recognise(image func() io.Reader, page int, input string, args ...string) (string, error) {
	src := ocrInput{image: image, input: input, args: args}
	langs, detected := t.languagesOf(src)
	text, err := t.read(src, page, langs)
	if err != nil || detected || !t.script.contradicts(text) {
		return text, err
	}
	t.script.last = "" // the file changed script: this page's is detected
	if again, _ := t.languagesOf(src); again != langs {
		return t.read(src, page, again)
	}
	return text, nil
}

// ocrInput is one image for Tesseract: image() on stdin (input "stdin") or
// the file at inputPath, with the arguments that pick it out and size it.
type ocrInput struct {
	image func() io.Reader
	input string
	args  []string
}

// command is Tesseract over the image with args before the input's own.
func (t *textRun) command(src ocrInput, args ...string) (cmd *exec.Cmd, out, stderr *limited) {
	cmd, out, stderr = t.tesseractCmd(src.input, append(args, src.args...)...)
	if src.image != nil {
		cmd.Stdin = src.image()
	}
	if src.input == inputPath {
		t.reads(cmd)
	}
	return cmd, out, stderr
}

// read is the image's text in langs (-l).
func (t *textRun) read(src ocrInput, page int, langs string) (string, error) {
	cmd, out, stderr := t.command(src, "-l", langs)
	if err := runLocked(cmd); err != nil {
		return "", t.failed("tesseract", page, err, stderr.String())
	}
	return cleanOCR(out.String()), nil
}

// failed is the refusal for a program that failed on page n: over its
// memory, over its CPU time (killed by the kernel), or otherwise.
func (t *textRun) failed(prog string, n int, err error, stderr string) error {
	page := strconv.Itoa(n)
	if memoryWords(stderr) {
		limit := ""
		if t.opt.Memory > 0 {
			limit = strconv.FormatInt(t.opt.Memory>>20, 10) + " MB"
		}
		return refuse(RefusedTooMuchMemory, t.name, map[string]string{"limit": limit}, ErrTooLarge,
			"%q could not be read: recognising page %s needs more memory than %s", t.name, page, orElse(limit, "it may use"))
	}
	if sig := signalOf(err); sig == syscall.SIGKILL || sig == syscall.Signal(0x18) { // 0x18: SIGXCPU on Linux and macOS
		limit := ""
		if t.opt.CPU > 0 {
			limit = strconv.Itoa(int(t.opt.CPU.Round(time.Second)/time.Second)) + " s"
		}
		return refuse(RefusedTooSlow, t.name, map[string]string{"limit": limit}, ErrTooLarge,
			"%q could not be read: recognising page %s took longer than %s", t.name, page, orElse(limit, "it may"))
	}
	why := prog + ": " + detail(err)
	if l := lastLine(stderr); l != "" {
		why = prog + ": " + l
	}
	return refuse(RefusedOCRFailed, t.name, map[string]string{"page": page, "detail": why}, ErrUnsupported,
		"text recognition failed on page %s of %q (%s)", page, t.name, why)
}

func orElse(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func signalOf(err error) syscall.Signal {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return ws.Signal()
		}
	}
	return 0
}

// memoryWords: what Tesseract, leptonica and poppler say when an allocation
// fails under the address-space limit.
func memoryWords(stderr string) bool {
	for _, s := range []string{"bad_alloc", "Out of memory", "out of memory", "Cannot allocate memory", "failed to map segment"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return detail(errors.New(strings.TrimSpace(lines[len(lines)-1])))
}

// cleanOCR is Tesseract's text without its page ends (form feeds), trailing
// spaces, the spaces it puts between Chinese characters, and the line breaks
// where a Chinese paragraph wrapped (a word cut at a line end is one word).
func cleanOCR(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\f", ""), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return fullWidth(joinCJKLines(joinCJK(normalize(strings.Join(lines, "\n")))))
}

// joinCJKLines drops a single line break between two characters of scripts
// written without spaces: Tesseract ends every printed line with one, so a
// wrapped Chinese paragraph would be cut into runs whose words straddle the
// cuts; a blank line (a paragraph's end) stays.
func joinCJKLines(s string) string { return dropBetweenUnspaced(s, '\n') }

// fullWidthOf are the ASCII marks Tesseract writes for Chinese punctuation.
var fullWidthOf = map[rune]rune{'(': '（', ')': '）', ',': '，', ':': '：', ';': '；', '!': '！', '?': '？'}

// fullWidth writes an ASCII mark next to a Chinese character (spaces aside)
// as the full-width mark Chinese text uses, and drops the spaces around it.
func fullWidth(s string) string {
	rs := []rune(s)
	out := make([]rune, 0, len(rs))
	for i, r := range rs {
		fw, ok := chineseMark(rs, i)
		if ok {
			for len(out) > 0 && out[len(out)-1] == ' ' {
				out = out[:len(out)-1]
			}
			out = append(out, fw)
			continue
		}
		if r == ' ' && len(out) > 0 && isFullWidthMark(out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// chineseMark is the mark Chinese writes for the ASCII one at rs[i] beside
// Chinese text: a full-width one, and the middle dot of a transliterated name
// (保罗·皮尔斯, which Tesseract reads as a full stop against the next Han
// character, where Chinese never writes one).
func chineseMark(rs []rune, i int) (rune, bool) {
	before, after := neighbour(rs, i, -1), neighbour(rs, i, +1)
	if rs[i] == '.' && unicode.Is(unicode.Han, before) && i+1 < len(rs) && unicode.Is(unicode.Han, rs[i+1]) {
		return middleDot, true
	}
	fw, ok := fullWidthOf[rs[i]]
	return fw, ok && (unspaced(before) || unspaced(after))
}

const middleDot = '·'

// neighbour is the first rune before (dir -1) or after (+1) i that is not a space.
func neighbour(rs []rune, i, dir int) rune {
	for j := i + dir; j >= 0 && j < len(rs); j += dir {
		if rs[j] != ' ' {
			return rs[j]
		}
	}
	return 0
}

func isFullWidthMark(r rune) bool {
	if r == middleDot {
		return true
	}
	for _, fw := range fullWidthOf {
		if r == fw {
			return true
		}
	}
	return false
}

// joinCJK drops a space between two characters of scripts written without
// spaces (Han, kana, CJK punctuation and full-width forms).
func joinCJK(s string) string { return dropBetweenUnspaced(s, ' ') }

// dropBetweenUnspaced drops each sep that stands between two characters of
// scripts written without spaces.
func dropBetweenUnspaced(s string, sep rune) string {
	if !strings.ContainsRune(s, sep) {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		if r == sep && i > 0 && i+1 < len(rs) && unspaced(rs[i-1]) && unspaced(rs[i+1]) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

// grayPage is m as 8-bit gray (a transparent pixel white), its long edge at
// most ocrEdge; its bounds start at 0, 0.
func grayPage(m image.Image) *image.Gray {
	if b := m.Bounds(); max(b.Dx(), b.Dy()) > ocrEdge {
		m = shrink(m, ocrEdge)
	}
	b := m.Bounds()
	switch g := m.(type) {
	case *image.Gray:
		if b.Min == (image.Point{}) {
			return g
		}
	case *image.YCbCr:
		if b.Min == (image.Point{}) { // its Y plane is the gray of it
			return &image.Gray{Pix: g.Y, Stride: g.YStride, Rect: g.Rect}
		}
	}
	g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	line := image.NewRGBA(image.Rect(0, 0, b.Dx(), 1))
	for y := range b.Dy() {
		draw.Draw(line, line.Rect, m, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
		row := g.Pix[y*g.Stride : y*g.Stride+b.Dx()]
		for x := range row {
			p := line.Pix[4*x : 4*x+4]
			w := 255 - uint32(p[3]) // premultiplied colour, and white where it is transparent
			row[x] = uint8((299*(uint32(p[0])+w) + 587*(uint32(p[1])+w) + 114*(uint32(p[2])+w) + 500) / 1000)
		}
	}
	return g
}

// pgm is g as a binary PGM file (P5), which Tesseract reads from stdin.
func pgm(g *image.Gray) io.Reader {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	head := strings.NewReader(fmt.Sprintf("P5\n%d %d\n255\n", w, h))
	if g.Stride == w {
		return io.MultiReader(head, bytes.NewReader(g.Pix[:w*h]))
	}
	pix := make([]byte, 0, w*h)
	for y := range h {
		pix = append(pix, g.Pix[y*g.Stride:y*g.Stride+w]...)
	}
	return io.MultiReader(head, bytes.NewReader(pix))
}

// isTIFF: a classic TIFF's header (BigTIFF is not read).
func isTIFF(data []byte) bool {
	return bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*"))
}

// tiffPages is where each page's directory of a TIFF file begins, in the
// order its chain gives (at most MaxOCRPages+1 of them; a link out of the
// file or back into the chain ends it). Only the header's and each
// directory's entry count and "next" offset are read.
func tiffPages(data []byte) (binary.ByteOrder, []uint32, error) {
	if !isTIFF(data) || len(data) < 8 {
		return nil, nil, errors.New("not a PNG, JPEG, TIFF, WebP or GIF file")
	}
	var order binary.ByteOrder = binary.LittleEndian
	if data[0] == 'M' {
		order = binary.BigEndian
	}
	var dirs []uint32
	for off := order.Uint32(data[4:8]); off != 0 && len(dirs) <= MaxOCRPages; {
		if int64(off)+2 > int64(len(data)) || slices.Contains(dirs, off) {
			break
		}
		next := int64(off) + 2 + 12*int64(order.Uint16(data[off:]))
		if next+4 > int64(len(data)) {
			break
		}
		dirs = append(dirs, off)
		off = order.Uint32(data[next:])
	}
	if len(dirs) == 0 {
		return nil, nil, errors.New("it has no image in it")
	}
	return order, dirs, nil
}

// tiffPage is a TIFF file read as if its header named another page's
// directory first: every offset in a TIFF is from the file's start, so the
// rest reads as it is (x/image/tiff reads the first page only).
type tiffPage struct {
	data  []byte
	dir   uint32
	order binary.ByteOrder
}

func (p *tiffPage) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(p.data)) {
		return 0, io.EOF
	}
	n := copy(b, p.data[off:])
	var head [8]byte
	copy(head[:4], p.data[:4])
	p.order.PutUint32(head[4:], p.dir)
	for at := off; at < 8 && at < off+int64(n); at++ {
		b[at-off] = head[at]
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

func (p *tiffPage) Read([]byte) (int, error) { return 0, errors.New("tiff: read through ReadAt") }

// limited keeps the first max bytes written to it. Its buffer is not
// embedded: io.Copy (and so exec.Cmd) would use a bytes.Buffer's ReadFrom,
// which takes all there is.
type limited struct {
	buf bytes.Buffer
	max int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); len(p) > room {
		l.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return l.buf.Write(p)
}

func (l *limited) String() string { return l.buf.String() }
