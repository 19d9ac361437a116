package documenttest

import (
	"fmt"
	"image"
	"image/draw"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Printed is a white page of w×h pixels with lines of black text set in the
// Go font at size pixels (anti-aliased, as a scanner sees print), the first
// line's baseline at 2×size from the top, the left margin size.
func Printed(w, h int, size float64, lines ...string) *image.Gray {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic(err)
	}
	return PrintedIn(f, w, h, size, lines...)
}

// PrintedIn is Printed in another font (a CJK one for Chinese text).
func PrintedIn(f *opentype.Font, w, h int, size float64, lines ...string) *image.Gray {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	defer face.Close()
	m := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(m, m.Bounds(), image.White, image.Point{}, draw.Src)
	d := font.Drawer{Dst: m, Src: image.Black, Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(int(size), int(size*(2+1.6*float64(i))))
		d.DrawString(l)
	}
	return m
}

// ScannedPDF is a PDF whose pages are scans: each page an image (a JPEG,
// DCTDecode) drawn over the whole of a page as large as the image at dpi
// dots per inch, with no text layer, as a scanner writes it. A page given as
// a string is a page of that text instead (Helvetica, a text layer).
func ScannedPDF(dpi float64, pages ...any) []byte {
	kids := make([]string, len(pages))
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+3*i)
	}
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"}
	for i, p := range pages {
		img, content := 5+3*i, 6+3*i // the page is 4+3*i
		if text, ok := p.(string); ok {
			do := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
			objs = append(objs,
				fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", content),
				"null",
				fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(do), do))
			continue
		}
		m := p.(image.Image)
		b := m.Bounds()
		wpt, hpt := float64(b.Dx())*72/dpi, float64(b.Dy())*72/dpi
		space := "/DeviceRGB"
		if _, gray := m.(*image.Gray); gray {
			space = "/DeviceGray"
		}
		data := JPEG(m, 90)
		do := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", wpt, hpt)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", wpt, hpt, img, content),
			fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n%s\nendstream",
				b.Dx(), b.Dy(), space, len(data), data),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(do), do))
	}
	return objects(objs...)
}

// Lines are n lines of twelve English words each, varied from line to line,
// as on a page of prose (benchmarks fill a page with them).
func Lines(n int) []string {
	words := strings.Fields("the pump in building seven was serviced on 3 March and the invoice total of 421 EUR was paid in full by the owner of the house")
	lines := make([]string, n)
	for i := range lines {
		l := make([]string, 12)
		for j := range l {
			l[j] = words[(i*7+j*3)%len(words)]
		}
		lines[i] = strings.Join(l, " ")
	}
	return lines
}
