// Package pdfdoc draws a conversation as a PDF: a title, then each message
// with its heading, its Markdown text laid out (headings, paragraphs, lists,
// quotes, code blocks, tables as rows) and its pictures, on A4 pages, with
// the fonts embedded (docs/architecture.md, "Who owns what"). Chinese and
// other CJK text is drawn with a TrueType fallback font; without it the PDF is
// refused (ErrNoFont), never drawn with empty boxes.
package pdfdoc

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // pictures as attached
	_ "image/jpeg"
	_ "image/png"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/signintech/gopdf"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Doc is what a PDF shows.
type Doc struct {
	Title, Subtitle string
	Entries         []Entry
}

// Entry is one message: its heading (who and when), its Markdown text, lines
// in small print after it (attachments, a status), and its pictures.
type Entry struct {
	Heading  string
	Markdown string
	Notes    []string
	Images   []Image
}

// Image is an attached picture (JPEG, PNG or GIF).
type Image struct {
	Name string
	Data []byte
}

// Stats say what drawing left out: characters no installed font has
// (drawn as "?"), pictures that could not be read (their name instead).
type Stats struct {
	Pages, Missing, BadImages int
}

// Page geometry, in points (A4).
const (
	pageW, pageH = 595.0, 842.0
	margin       = 50.0
	bodySize     = 10.5
	lineFactor   = 1.45
)

// Write draws d as a PDF on w, with the fonts found in the usual font folders.
func Write(w io.Writer, d Doc) (Stats, error) { return write(w, d, fontDirs) }

func write(w io.Writer, d Doc, dirs []string) (Stats, error) {
	fonts, err := loadFonts(dirs)
	if err != nil {
		return Stats{}, err
	}
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetInfo(gopdf.PdfInfo{Title: d.Title, Creator: "Hermes", Producer: "Hermes"})
	for f, ft := range fonts {
		if err := pdf.AddTTFFontData(f.String(), ft.data); err != nil {
			return Stats{}, fmt.Errorf("pdf: font %s: %w", f, err)
		}
	}
	l := &layout{pdf: pdf, fonts: fonts, md: goldmark.New(goldmark.WithExtensions(extension.GFM)), widths: map[widthKey]float64{}}
	l.newPage()
	l.paragraph([]span{{text: d.Title, f: bold, size: 20, color: ink}}, 0, nil)
	if d.Subtitle != "" {
		l.paragraph([]span{{text: d.Subtitle, f: regular, size: 9.5, color: grey}}, 0, nil)
	}
	l.y += 10
	for _, e := range d.Entries {
		l.rule()
		l.paragraph([]span{{text: e.Heading, f: bold, size: 9.5, color: grey}}, 0, nil)
		l.y += 2
		l.markdown(e.Markdown)
		for _, img := range e.Images {
			l.image(img)
		}
		for _, n := range e.Notes {
			l.paragraph([]span{{text: n, f: regular, size: 9, color: grey}}, 0, nil)
		}
		l.y += 8
	}
	if err := pdf.Write(w); err != nil {
		return Stats{}, fmt.Errorf("pdf: %w", err)
	}
	l.stats.Pages = l.pages
	return l.stats, l.err
}

type rgb [3]uint8

var (
	ink    = rgb{0x1d, 0x1d, 0x1f}
	grey   = rgb{0x6b, 0x6b, 0x70}
	codeBG = rgb{0xf0, 0xf0, 0xf3}
	ruleC  = rgb{0xdc, 0xdc, 0xe0}
)

// span is text in one style.
type span struct {
	text  string
	f     face
	size  float64
	color rgb
}

// layout is the pen: where the next line goes, on which page.
type layout struct {
	pdf    *gopdf.GoPdf
	fonts  map[face]*font
	md     goldmark.Markdown
	widths map[widthKey]float64
	y      float64
	pages  int
	stats  Stats
	err    error
}

func (l *layout) newPage() {
	l.pdf.AddPage()
	l.pages++
	l.y = margin
}

// room starts a new page unless h more points fit on this one.
func (l *layout) room(h float64) {
	if l.y+h > pageH-margin {
		l.newPage()
	}
}

func (l *layout) rule() {
	l.room(12)
	l.pdf.SetStrokeColor(ruleC[0], ruleC[1], ruleC[2])
	l.pdf.SetLineWidth(0.6)
	l.pdf.Line(margin, l.y, pageW-margin, l.y)
	l.y += 8
}

// seg is a piece of a unit drawn with one font.
type seg struct {
	text  string
	f     face
	size  float64
	color rgb
	w     float64
}

// unit is what a line breaks between: a word, one CJK character, a space or a
// line break.
type unit struct {
	segs  []seg
	w     float64
	space bool
	br    bool
}

// paragraph lays out spans from indent, wrapping at the margin; bg shades each
// line (a code block).
func (l *layout) paragraph(spans []span, indent float64, bg *rgb) {
	width := pageW - 2*margin - indent
	size := bodySize
	for _, s := range spans {
		size = max(size, s.size)
	}
	lh := size * lineFactor
	var line []unit
	lineW := 0.0
	flush := func() {
		for len(line) > 0 && line[len(line)-1].space {
			lineW -= line[len(line)-1].w
			line = line[:len(line)-1]
		}
		l.room(lh)
		if bg != nil {
			l.pdf.SetFillColor(bg[0], bg[1], bg[2])
			l.pdf.RectFromUpperLeftWithStyle(margin+indent-4, l.y, width+8, lh, "F")
		}
		x := margin + indent
		for _, u := range line {
			for _, s := range u.segs {
				l.draw(s, x, l.y+(lh-s.size*1.2)/2)
				x += s.w
			}
		}
		l.y += lh
		line, lineW = nil, 0
	}
	for _, u := range l.units(spans, bg != nil) {
		switch {
		case u.br:
			flush()
			continue
		case u.space && len(line) == 0:
			continue
		}
		if lineW+u.w > width && len(line) > 0 {
			flush()
			if u.space {
				continue
			}
		}
		for u.w > width { // a word wider than the page: cut it
			head, rest := l.cut(u, width-lineW)
			line = append(line, head)
			flush()
			u = rest
		}
		line = append(line, u)
		lineW += u.w
	}
	if len(line) > 0 || len(spans) == 0 {
		flush()
	}
}

// draw writes one seg at x, y (the top of its text).
func (l *layout) draw(s seg, x, y float64) {
	if err := l.pdf.SetFont(s.f.String(), "", s.size); err != nil {
		l.fail(err)
		return
	}
	l.pdf.SetTextColor(s.color[0], s.color[1], s.color[2])
	l.pdf.SetXY(x, y)
	if err := l.pdf.Cell(nil, s.text); err != nil {
		l.fail(err)
	}
}

func (l *layout) fail(err error) {
	if l.err == nil {
		l.err = fmt.Errorf("pdf: %w", err)
	}
}

// widthKey is a character's (or a short text's) width in one font and size.
type widthKey struct {
	text string
	f    face
	size float64
}

// width measures text in one font; a character's width is kept, since text is
// measured a character at a time.
func (l *layout) width(text string, f face, size float64) float64 {
	k := widthKey{text, f, size}
	if w, ok := l.widths[k]; ok {
		return w
	}
	if err := l.pdf.SetFont(f.String(), "", size); err != nil {
		l.fail(err)
		return 0
	}
	w, err := l.pdf.MeasureTextWidth(text)
	if err != nil {
		l.fail(err)
	}
	if len(text) <= utf8.UTFMax {
		l.widths[k] = w
	}
	return w
}

// units cuts spans into what lines break between; in code (keepSpaces) every
// space is kept and a long line may break anywhere.
func (l *layout) units(spans []span, keepSpaces bool) []unit {
	var out []unit
	var word []seg
	end := func() {
		if len(word) > 0 {
			u := unit{segs: word}
			for _, s := range word {
				u.w += s.w
			}
			out = append(out, u)
			word = nil
		}
	}
	for _, s := range spans {
		for _, r := range s.text {
			switch {
			case r == '\n':
				end()
				out = append(out, unit{br: true})
			case r == '\t' || unicode.IsSpace(r):
				end()
				n := 1
				if r == '\t' {
					n = 4
				}
				sp := l.seg(strings.Repeat(" ", n), s)
				out = append(out, unit{segs: []seg{sp}, w: sp.w, space: !keepSpaces})
			case isCJK(r):
				end()
				c := l.seg(string(r), s)
				out = append(out, unit{segs: []seg{c}, w: c.w})
			default:
				c := l.seg(string(r), s)
				if n := len(word); n > 0 && word[n-1].f == c.f && word[n-1].size == c.size && word[n-1].color == c.color {
					word[n-1].text += c.text
					word[n-1].w += c.w
				} else {
					word = append(word, c)
				}
			}
		}
	}
	end()
	return out
}

// seg is text of style s in the font that draws it: the style's own, else the
// fallback; a character neither has is drawn as "?" and counted.
func (l *layout) seg(t string, s span) seg {
	f := s.f
	if ft := l.fonts[f]; ft == nil || !allIn(ft, t) {
		f = fallback
		if !allIn(l.fonts[fallback], t) {
			l.stats.Missing++
			t = "?"
		}
	}
	return seg{text: t, f: f, size: s.size, color: s.color, w: l.width(t, f, s.size)}
}

func allIn(f *font, t string) bool {
	for _, r := range t {
		if r != ' ' && !f.has(r) {
			return false
		}
	}
	return true
}

// cut splits a unit so that its head fits in w (at least one character).
func (l *layout) cut(u unit, w float64) (head, rest unit) {
	for i, s := range u.segs {
		rs := []rune(s.text)
		for k := 1; k <= len(rs); k++ {
			hw := head.w + l.width(string(rs[:k]), s.f, s.size)
			if hw > w && (k > 1 || head.w > 0) {
				k--
				if k > 0 {
					a := seg{text: string(rs[:k]), f: s.f, size: s.size, color: s.color}
					a.w = l.width(a.text, a.f, a.size)
					head.segs, head.w = append(head.segs, a), head.w+a.w
				}
				b := seg{text: string(rs[k:]), f: s.f, size: s.size, color: s.color}
				b.w = l.width(b.text, b.f, b.size)
				rest.segs = append([]seg{b}, u.segs[i+1:]...)
				for _, x := range rest.segs {
					rest.w += x.w
				}
				return head, rest
			}
		}
		head.segs, head.w = append(head.segs, s), head.w+s.w
	}
	return head, unit{}
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}

// image draws a picture at most the page's width and 360 points high.
func (l *layout) image(img Image) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	holder, herr := gopdf.ImageHolderByBytes(img.Data)
	if err != nil || herr != nil || cfg.Width == 0 || cfg.Height == 0 {
		l.stats.BadImages++
		l.paragraph([]span{{text: "[image: " + img.Name + "]", f: regular, size: bodySize, color: grey}}, 0, nil)
		return
	}
	w, h := float64(cfg.Width)*0.75, float64(cfg.Height)*0.75
	if maxW := pageW - 2*margin; w > maxW {
		w, h = maxW, h*maxW/w
	}
	if h > 360 {
		w, h = w*360/h, 360
	}
	l.room(h + 6)
	if err := l.pdf.ImageByHolder(holder, margin, l.y, &gopdf.Rect{W: w, H: h}); err != nil {
		l.fail(err)
		return
	}
	l.y += h + 4
	l.paragraph([]span{{text: img.Name, f: regular, size: 8.5, color: grey}}, 0, nil)
}

// markdown lays out a message's Markdown text.
func (l *layout) markdown(md string) {
	src := []byte(md)
	doc := l.md.Parser().Parse(text.NewReader(src))
	l.blocks(doc, src, 0)
}

// blocks lays out the block children of n from indent.
func (l *layout) blocks(n ast.Node, src []byte, indent float64) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		l.block(c, src, indent)
	}
}

func (l *layout) block(n ast.Node, src []byte, indent float64) {
	body := span{f: regular, size: bodySize, color: ink}
	switch n := n.(type) {
	case *ast.Heading:
		size := map[int]float64{1: 16, 2: 14, 3: 12.5}[n.Level]
		if size == 0 {
			size = 11.5
		}
		l.y += 4
		l.paragraph(l.inlines(n, src, span{f: bold, size: size, color: ink}), indent, nil)
		l.y += 2
	case *ast.Paragraph, *ast.TextBlock:
		l.paragraph(l.inlines(n, src, body), indent, nil)
		if _, ok := n.(*ast.Paragraph); ok {
			l.y += 5
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		code := strings.TrimRight(b.String(), "\n")
		l.y += 2
		l.paragraph([]span{{text: code, f: mono, size: 9, color: ink}}, indent+6, &codeBG)
		l.y += 7
	case *ast.List:
		i := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			mark := "•"
			if n.IsOrdered() {
				mark = fmt.Sprintf("%d.", i)
				i++
			}
			l.room(bodySize * lineFactor)
			y := l.y
			l.draw(l.seg(mark, body), margin+indent+2, y+(bodySize*lineFactor-bodySize*1.2)/2)
			l.blocks(item, src, indent+18)
		}
		l.y += 4
	case *ast.Blockquote:
		l.blocks(n, src, indent+14) // quoted text, indented
	case *ast.ThematicBreak:
		l.rule()
	case *ast.HTMLBlock:
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(src))
		}
		l.paragraph([]span{{text: strings.TrimRight(b.String(), "\n"), f: mono, size: 9, color: grey}}, indent, nil)
		l.y += 5
	case *east.Table:
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			style := body
			if _, head := row.(*east.TableHeader); head {
				style.f = bold
			}
			var spans []span
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				if cell != row.FirstChild() {
					spans = append(spans, span{text: "  |  ", f: regular, size: bodySize, color: grey})
				}
				spans = append(spans, l.inlines(cell, src, style)...)
			}
			l.paragraph(spans, indent, nil)
		}
		l.y += 5
	default:
		if n.HasChildren() {
			l.blocks(n, src, indent)
		}
	}
}

// inlines are the spans of n's inline content in style st.
func (l *layout) inlines(n ast.Node, src []byte, st span) []span {
	var out []span
	add := func(t string, s span) {
		if t != "" {
			s.text = t
			out = append(out, s)
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			t := string(c.Segment.Value(src))
			switch {
			case c.HardLineBreak():
				t += "\n"
			case c.SoftLineBreak():
				t += " "
			}
			add(t, st)
		case *ast.String:
			add(string(c.Value), st)
		case *ast.CodeSpan:
			code := st
			code.f = mono
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					add(string(tx.Segment.Value(src)), code)
				}
			}
		case *ast.Emphasis:
			e := st
			if c.Level >= 2 {
				e.f = bold
			}
			out = append(out, l.inlines(c, src, e)...)
		case *ast.Link:
			out = append(out, l.inlines(c, src, st)...)
			g := st
			g.color = grey
			add(" ("+string(c.Destination)+")", g)
		case *ast.AutoLink:
			add(string(c.URL(src)), st)
		case *ast.Image:
			g := st
			g.color = grey
			var alt strings.Builder
			for _, s := range l.inlines(c, src, st) {
				alt.WriteString(s.text)
			}
			add("[image: "+alt.String()+"]", g)
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				add(string(seg.Value(src)), st)
			}
		case *east.TaskCheckBox:
			if c.IsChecked {
				add("[x] ", st)
			} else {
				add("[ ] ", st)
			}
		default:
			out = append(out, l.inlines(c, src, st)...)
		}
	}
	return out
}
