package documenttest

import (
	"bytes"
	"compress/flate"
	"fmt"
)

// XRefBombPDF is the 115-byte PDF whose cross-reference stream claims 999,999,999
// entries: a reader that believes /Size allocates them all.
func XRefBombPDF() []byte {
	return []byte("%PDF-1.5\n1 0 obj\n<< /Type /XRef /Size 999999999 /W [0 0 0] /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n9\n%%EOF\n")
}

// SelfKidsPDF is a PDF whose page tree names itself as its own kid
// (/Kids [2 0 R] in object 2): a reader that walks the tree never ends.
func SelfKidsPDF() []byte {
	return objects(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [2 0 R] /Count 1 >>",
	)
}

// FlateBombPDF is a PDF of about compressed bytes whose one page's content
// stream inflates to about 1,000 times that (zeros, Flate-encoded): one
// compressed MiB of zeros repeated, as a zlib stream with its right checksum.
func FlateBombPDF(compressed int) []byte {
	var one bytes.Buffer
	w, _ := flate.NewWriter(&one, flate.BestCompression)
	_, _ = w.Write(make([]byte, 1<<20))
	_ = w.Flush() // ends on a byte: the block can be repeated
	var z bytes.Buffer
	z.Write([]byte{0x78, 0xda}) // zlib header, best compression
	n := 0
	for z.Len() < compressed {
		z.Write(one.Bytes())
		n++
	}
	z.Write([]byte{0x03, 0x00})        // the final, empty block
	b := uint32(uint64(n<<20) % 65521) // Adler-32 of n MiB of zeros: A = 1, B = length
	z.Write([]byte{byte(b >> 8), byte(b), 0, 1})
	return objects(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
	)
}

// BadXRefPDF is a PDF whose cross-reference table points past the end of the file.
func BadXRefPDF() []byte {
	b := MinimalPDF([]string{"hello"})
	i := bytes.LastIndex(b, []byte("xref\n0 "))
	return append(b[:i:i], []byte("xref\n0 6\n0000000000 65535 f \n9999999999 00000 n \n0000000009 00000 n \ntrailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n"+fmt.Sprint(i)+"\n%%EOF\n")...)
}

// objects is a PDF of the given objects (numbered from 1, object 1 the
// catalog) with a correct cross-reference table.
func objects(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}
