package pdfdoc

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

func testPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 120, 80))
	for x := range 120 {
		for y := range 80 {
			img.Set(x, y, color.RGBA{uint8(x * 2), 100, uint8(y * 3), 255})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// pdfText is the text of every page, as a reader of the file finds it.
func pdfText(t *testing.T, data []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the PDF does not open: %v", err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		s, err := p.GetPlainText(nil)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(s)
	}
	return b.String()
}

// TestWrite: a conversation with Markdown, code, a list, a table, Chinese and a
// picture becomes a PDF whose text a reader finds again, over several pages
// when it is long; no character is left without a glyph.
func TestWrite(t *testing.T) {
	long := strings.Repeat("A paragraph that goes on for a while so that the page fills up. ", 30)
	d := Doc{Title: "Sorting in Go 排序", Subtitle: "Exported from Hermes", Entries: []Entry{
		{Heading: "You · 2024-01-01 10:00 UTC", Markdown: "How do I **sort** a slice? 我想按年龄排序，并且保持稳定。"},
		{Heading: "Hermes · 2024-01-01 10:00 UTC", Markdown: "# Answer\n\nUse `slices`:\n\n```go\nslices.SortStableFunc(people, func(a, b Person) int {\n\treturn cmp.Compare(a.Age, b.Age) // 按年龄\n})\n```\n\n- first\n- second 第二\n\n1. one\n2. two\n\n| name | age |\n|---|---|\n| 小明 | 7 |\n\n> quoted\n\nSee https://go.dev/doc/" + strings.Repeat("x", 200) + "\n\n" + long + long,
			Images: []Image{{Name: "chart.png", Data: testPNG()}}, Notes: []string{"Attached: notes.txt"}},
	}}
	var out bytes.Buffer
	st, err := Write(&out, d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("%PDF-")) || st.Pages < 2 || st.Missing != 0 || st.BadImages != 0 {
		t.Fatalf("stats %+v, header %q", st, out.Bytes()[:8])
	}
	text := strings.Join(strings.Fields(pdfText(t, out.Bytes())), "")
	for _, want := range []string{"SortinginGo排序", "HowdoIsortaslice?", "我想按年龄排序，并且保持稳定。", "slices.SortStableFunc(people,", "//按年龄", "second第二", "小明", "chart.png", "Attached:notes.txt", "Answer"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
}

// TestNoFont: without the CJK font the PDF is refused with what to install.
func TestNoFont(t *testing.T) {
	var out bytes.Buffer
	_, err := write(&out, Doc{Title: "x"}, []string{t.TempDir()})
	if !errors.Is(err, ErrNoFont) || !strings.Contains(err.Error(), FontPackage) || out.Len() != 0 {
		t.Fatalf("err %v, %d bytes written", err, out.Len())
	}
}

// TestMissingGlyph: a character no font has is drawn as "?" and counted.
func TestMissingGlyph(t *testing.T) {
	var out bytes.Buffer
	st, err := Write(&out, Doc{Title: "emoji", Entries: []Entry{{Heading: "You", Markdown: "party \U0001F389 time"}}})
	if err != nil || st.Missing != 1 {
		t.Fatalf("stats %+v, %v", st, err)
	}
}
