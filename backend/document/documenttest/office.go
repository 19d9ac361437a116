package documenttest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"image"
)

// Zip is a zip archive of the given entries (name, content, …), deflated,
// in that order; an entry named "mimetype" is stored, as ODF wants it.
func Zip(entries ...string) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i+1 < len(entries); i += 2 {
		h := &zip.FileHeader{Name: entries[i], Method: zip.Deflate}
		if entries[i] == "mimetype" {
			h.Method = zip.Store
		}
		f, err := w.CreateHeader(h)
		if err != nil {
			panic(err)
		}
		if _, err := f.Write([]byte(entries[i+1])); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// WordNS is the WordprocessingML namespace a DOCX body's elements are in.
const WordNS = `http://schemas.openxmlformats.org/wordprocessingml/2006/main`

// DOCX is a Word document whose body (inside w:body) is body, with the
// package parts Word writes (content types, relationships) and styles (the
// inside of w:styles; "" for none).
func DOCX(body, styles string) []byte {
	ns := `xmlns:w="` + WordNS + `" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"`
	entries := []string{
		"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ` + ns + `><w:body>` + body + `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`,
	}
	if styles != "" {
		entries = append(entries, "word/styles.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles `+ns+`>`+styles+`</w:styles>`)
	}
	return Zip(entries...)
}

// ODT is an OpenDocument text whose body (inside office:text) is body.
func ODT(body string) []byte {
	return Zip(
		"mimetype", "application/vnd.oasis.opendocument.text",
		"META-INF/manifest.xml", `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
		"content.xml", `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"><office:automatic-styles/><office:body><office:text>`+body+`</office:text></office:body></office:document-content>`,
	)
}

// ZipBomb is a zip of one entry named name whose deflated stream unpacks to
// gib GiB of zeros (about 1 MiB of file per GiB); its header claims claimed
// bytes unpacked (the truth, gib<<30, or a lie).
func ZipBomb(name string, gib int, claimed uint64) []byte {
	var one bytes.Buffer
	w, _ := flate.NewWriter(&one, flate.BestCompression)
	_, _ = w.Write(make([]byte, 1<<20))
	_ = w.Flush() // ends on a byte: the block can be repeated
	var raw bytes.Buffer
	for range gib << 10 {
		raw.Write(one.Bytes())
	}
	raw.Write([]byte{0x03, 0x00}) // the final, empty block
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	f, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CompressedSize64: uint64(raw.Len()), UncompressedSize64: claimed})
	if err != nil {
		panic(err)
	}
	_, _ = f.Write(raw.Bytes())
	_ = zw.Close()
	return b.Bytes()
}

// TIFF is a multi-page TIFF (little-endian, uncompressed 8-bit gray, one
// strip a page, 200 dpi): each page's directory, then its pixels.
func TIFF(pages ...*image.Gray) []byte {
	le := binary.LittleEndian
	b := []byte("II*\x00\x00\x00\x00\x00")
	link := 4 // where the offset of the next directory goes
	for _, m := range pages {
		w, h := m.Rect.Dx(), m.Rect.Dy()
		dir := len(b)
		le.PutUint32(b[link:], uint32(dir))
		const n = 10
		pix := dir + 2 + 12*n + 4
		res := pix + w*h // two rationals: 200/1
		entry := func(tag, typ uint16, v uint32) {
			b = le.AppendUint16(b, tag)
			b = le.AppendUint16(b, typ)
			b = le.AppendUint32(b, 1)
			b = le.AppendUint32(b, v)
		}
		b = le.AppendUint16(b, n)
		entry(256, 4, uint32(w))   // ImageWidth
		entry(257, 4, uint32(h))   // ImageLength
		entry(258, 3, 8)           // BitsPerSample
		entry(259, 3, 1)           // Compression: none
		entry(262, 3, 1)           // PhotometricInterpretation: black is zero
		entry(273, 4, uint32(pix)) // StripOffsets
		entry(278, 4, uint32(h))   // RowsPerStrip
		entry(279, 4, uint32(w*h)) // StripByteCounts
		entry(282, 5, uint32(res)) // XResolution
		entry(283, 5, uint32(res)) // YResolution
		link = len(b)
		b = le.AppendUint32(b, 0)
		for y := range h {
			b = append(b, m.Pix[y*m.Stride:y*m.Stride+w]...)
		}
		b = le.AppendUint32(b, 200)
		b = le.AppendUint32(b, 1)
	}
	return b
}

// WithOrientation is a JPEG with an EXIF segment saying it is stored turned
// (orientation o: 6 is a quarter turn clockwise to be upright).
func WithOrientation(jpeg []byte, o byte) []byte {
	exif := []byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00")
	exif[len(exif)-7] = o
	seg := append([]byte{0xff, 0xe1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	return append(append([]byte{0xff, 0xd8}, seg...), jpeg[2:]...)
}
