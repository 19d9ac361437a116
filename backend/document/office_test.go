package document

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"hermes/backend/document/documenttest"
)

// A Word document as Word writes it (attributes on every paragraph and run,
// text split across runs, a translated Word's style ids) reads as
// paragraphs, with its headings as Markdown and its lists as items.
func TestDOCX(t *testing.T) {
	styles := `<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="a3"><w:name w:val="Normal Indent"/></w:style>`
	body := `<w:p w:rsidR="00A1" w:rsidRDefault="00B2"><w:pPr><w:pStyle w:val="1"/></w:pPr><w:r w:rsidR="1"><w:t>Pump manual</w:t></w:r></w:p>` +
		`<w:p w:rsidR="00A1"><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Tom &amp; Jerry </w:t></w:r><w:r><w:t>service</w:t></w:r><w:r><w:tab/><w:t>the boiler</w:t></w:r></w:p>` +
		"\n<w:p>\n<w:pPr><w:tabs><w:tab w:val=\"left\" w:pos=\"720\"/></w:tabs></w:pPr>\n<w:r><w:t>first line</w:t><w:br/><w:t>second line</w:t></w:r>\n</w:p>" +
		`<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Steps</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Close the valve.</w:t></w:r></w:p>` +
		`<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE \* MERGEFORMAT</w:instrText></w:r><w:r><w:t>Kept</w:t></w:r><w:del><w:r><w:delText>deleted words</w:delText></w:r></w:del></w:p>` +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell one</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>cell two</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx><w:txbxContent><w:p><w:r><w:t>In a text box</w:t></w:r></w:p></w:txbxContent></wps:txbx></w:drawing></mc:Choice>` +
		`<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>In a text box</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>` +
		`<w:p><w:r><w:t>中文段落。</w:t></w:r></w:p>`
	d, err := Extract("manual.docx", documenttest.DOCX(body, styles))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Pump manual\n\nTom & Jerry service\tthe boiler\n\nfirst line\nsecond line\n\n## Steps\n\n- Close the valve.\n\nKept\n\ncell one\n\ncell two\n\nIn a text box\n\n中文段落。"
	if d.Kind != KindDOCX || d.Text != want || d.Pages != nil {
		t.Fatalf("kind %s, text\n%q\nwant\n%q", d.Kind, d.Text, want)
	}
	// Known by its name or by its first entry; a parser, so caged.
	if !NeedsParser("manual.docx", nil) || !NeedsParser("upload", documenttest.DOCX(body, "")) {
		t.Error("a DOCX is not for the cage")
	}
	if d, err := ExtractText("upload", documenttest.DOCX(body, "")); err != nil || d.Kind != KindDOCX || !strings.Contains(d.Text, "## Steps") {
		t.Errorf("a DOCX without its name: %+v, %v", d, err)
	}
}

// An OpenDocument text: headings at their level, spans in their paragraph,
// spaces as ODF writes them, list items; notes and comments left out.
func TestODT(t *testing.T) {
	body := `<text:h text:style-name="H1" text:outline-level="2">Maintenance <text:span>log</text:span></text:h>` +
		`<text:p>Hello <text:span text:style-name="T1">world</text:span>,   three<text:s text:c="3"/>spaces` +
		`<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>a footnote</text:p></text:note-body></text:note>` +
		`<office:annotation><dc:creator>Ann</dc:creator><text:p>a comment</text:p></office:annotation>.</text:p>` +
		"<text:p>tab<text:tab/>and\nline<text:line-break/>break &amp; more</text:p>" +
		`<text:list><text:list-item><text:p>first item</text:p></text:list-item><text:list-item><text:p>second item</text:p></text:list-item></text:list>` +
		`<text:p><draw:frame><svg:title>a picture</svg:title></draw:frame>知识库</text:p><text:p/>`
	d, err := Extract("log.odt", documenttest.ODT(body))
	if err != nil {
		t.Fatal(err)
	}
	want := "## Maintenance log\n\nHello world, three   spaces.\n\ntab\tand line\nbreak & more\n\n- first item\n\n- second item\n\n知识库"
	if d.Kind != KindODT || d.Text != want {
		t.Fatalf("kind %s, text\n%q\nwant\n%q", d.Kind, d.Text, want)
	}
	if !NeedsParser("notes", documenttest.ODT(body)) || parserKind("notes", documenttest.ODT(body)) != KindODT {
		t.Error("an ODT is not known by its first entry")
	}
}

// A web page reads as its text: no scripts, styles or head, headings as
// Markdown, paragraphs apart, white space collapsed outside <pre>.
func TestHTML(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>Site title</title><style>body { color: red }</style>
<script>var secret = "do not index";</script><meta charset="utf-8"></head>
<body><nav><a href="/">Home</a></nav>
<h1>Boiler   <em>service</em></h1>
<p>The pump was serviced
   on 3&nbsp;March &amp; checked.</p><p>Second paragraph<br>with a break.</p>
<script type="module">alert("no")</script><noscript>enable scripts</noscript>
<h2>Parts</h2><ul><li>valve</li><li><p>seal</p></li><li></li></ul><p>After the list.</p>
<table><tr><th>part</th><th>price</th></tr><tr><td>valve</td><td>42</td></tr></table>
<pre>  indented
    code</pre><svg><text>drawing text</text></svg><div>中文内容</div>
</body></html>`
	d, err := Extract("page.html", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	want := "Home\n\n# Boiler service\n\nThe pump was serviced on 3 March & checked.\n\nSecond paragraph\nwith a break.\n\n## Parts\n\n- valve\n\n- seal\n\nAfter the list.\n\npart | price\n\nvalve | 42\n\nindented\n    code\n\n中文内容"
	if d.Kind != KindHTML || d.Text != want {
		t.Fatalf("kind %s, text\n%q\nwant\n%q", d.Kind, d.Text, want)
	}
	// A page in GBK that says so is read in it.
	gbk, _ := simplifiedchinese.GBK.NewEncoder().String(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk"></head><body><p>锅炉维修手册</p></body></html>`)
	if d, err := Extract("old.htm", []byte(gbk)); err != nil || d.Text != "锅炉维修手册" {
		t.Fatalf("GBK page: %q, %v", d.Text, err)
	}
	if d, err := Extract("empty.html", []byte("<html><script>x()</script></html>")); !errors.Is(err, ErrNoText) {
		t.Fatalf("a page of script only: %+v, %v", d, err)
	}
}

// Broken, hostile or mistaken office files are refused with a reason, never
// a panic or a long read.
func TestOfficeRefusals(t *testing.T) {
	good := documenttest.DOCX(`<w:p><w:r><w:t>hello</w:t></w:r></w:p>`, "")
	cases := []struct {
		name, file string
		data       []byte
		reason     string
		says       string
	}{
		{"truncated", "cut.docx", good[:len(good)/2], RefusedNotDocument, "could not be read as a DOCX document (zip: not a valid zip file)"},
		{"garbage named .odt", "junk.odt", []byte("this is not a zip at all"), RefusedNotDocument, "could not be read as an ODT document"},
		{"a zip with no body", "other.docx", documenttest.Zip("readme.txt", "hi"), RefusedNotDocument, "it has no word/document.xml"},
		{"an ODT with no content", "other.odt", documenttest.Zip("mimetype", "application/vnd.oasis.opendocument.text"), RefusedNotDocument, "it has no content.xml"},
		{"encrypted", "secret.docx", append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), make([]byte, 512)...), RefusedNotDocument, "encrypted"},
		{"bad XML", "bad.docx", documenttest.Zip("word/document.xml", "<w:document><w:body><w:p>"), RefusedNotDocument, "word/document.xml"},
		{"an entity bomb", "lol.docx", documenttest.Zip("word/document.xml", `<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><d><w:t>&b;</w:t></d>`), RefusedNotDocument, "invalid character entity"},
		{"zip bomb (4 GiB, says so)", "bomb.docx", documenttest.ZipBomb("word/document.xml", 4, 4<<30), RefusedUnpackedTooBig, "a part of it unpacks to more than 64.0 MB"},
		{"zip bomb (1 GiB, claims 100 bytes)", "liar.docx", documenttest.ZipBomb("word/document.xml", 1, 100), RefusedNotDocument, "zip: not a valid zip file"},
		{"odt bomb", "bomb.odt", documenttest.ZipBomb("content.xml", 1, 1<<30), RefusedUnpackedTooBig, "unpacks to more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Extract(c.file, c.data)
			var ref *Refusal
			if !errors.As(err, &ref) || ref.Reason != c.reason || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), c.file) {
				t.Fatalf("err = %v, want %s saying %q", err, c.reason, c.says)
			}
		})
	}
}

// A PDF's Pages say where each page begins in its text, in runes.
func TestPDFPages(t *testing.T) {
	pdf := documenttest.MinimalPDF([]string{"Première page: the boiler."}, []string{"Second page: the garden."})
	d, err := Extract("two.pdf", pdf)
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(d.Text)
	if len(d.Pages) != 2 || d.Pages[0] != 0 || d.Pages[1] <= 0 || d.Pages[1] >= len(rs) {
		t.Fatalf("pages %v of %q", d.Pages, d.Text)
	}
	one, two := string(rs[:d.Pages[1]]), string(rs[d.Pages[1]:])
	if !strings.HasPrefix(two, "Second page") || !strings.Contains(one, "boiler") || strings.Contains(one, "garden") {
		t.Fatalf("page 1 %q, page 2 %q", one, two)
	}
	// A page with no text begins where the next one does.
	d, err = Extract("three.pdf", documenttest.MinimalPDF([]string{"one"}, []string{}, []string{"three"}))
	if err != nil || len(d.Pages) != 3 || d.Pages[1] != d.Pages[2] || string([]rune(d.Text)[d.Pages[2]:]) != "three" {
		t.Fatalf("pages %v of %q: %v", d.Pages, d.Text, err)
	}
	// Kinds without pages have none.
	if d, _ := Extract("a.txt", []byte("text")); d.Pages != nil {
		t.Errorf("text has pages %v", d.Pages)
	}
}
