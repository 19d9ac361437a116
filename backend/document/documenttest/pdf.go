// Package documenttest writes small documents for tests.
package documenttest

import (
	"fmt"
	"strings"
)

// MinimalPDF is a valid PDF with one page per entry of pages, each showing its
// lines in Helvetica (ASCII text), with a correct cross-reference table.
func MinimalPDF(pages ...[]string) []byte {
	var objs []string
	n := len(pages)
	// 1 catalog, 2 pages, 3 font, then page/content pairs
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, lines := range pages {
		var c strings.Builder
		c.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
		for _, l := range lines {
			l = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l)
			fmt.Fprintf(&c, "(%s) Tj T*\n", l)
		}
		c.WriteString("ET")
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.Len(), c.String()))
	}
	return objects(objs...)
}
