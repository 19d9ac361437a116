package document

import (
	"bytes"
	"io"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// htmlSkipped are elements whose content is not the page's text: programs,
// styles, the head (its title included), embedded documents and drawings,
// and form controls' option lists.
var htmlSkipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Head: true, atom.Title: true,
	atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true, atom.Select: true,
}

// htmlBlocks are elements that begin and end a paragraph.
var htmlBlocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true, atom.Header: true,
	atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Blockquote: true, atom.Pre: true, atom.Ul: true,
	atom.Ol: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Table: true, atom.Tr: true, atom.Caption: true,
	atom.Figure: true, atom.Figcaption: true, atom.Form: true, atom.Fieldset: true, atom.Address: true,
	atom.Details: true, atom.Summary: true, atom.Hr: true, atom.Body: true, atom.Li: true, atom.Center: true,
}

var htmlHeadings = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

// readHTML is a web page's readable text (golang.org/x/net/html's
// tokenizer): no scripts, styles or head; headings as Markdown "#" lines,
// list items as "- " lines, table cells separated by " | " and a row to a
// line, paragraphs separated by blank lines, white space collapsed outside
// <pre>. The page's encoding is its byte order mark's or <meta charset>'s,
// else UTF-8 when the bytes are UTF-8.
func readHTML(data []byte) (content, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark says UTF-8, as no mark does
	z := html.NewTokenizer(htmlReader(data))
	var p paras
	skip, pre := []atom.Atom{}, 0
	for !p.full() {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); err != io.EOF {
				return content{}, err
			}
			break
		}
		name, _ := z.TagName()
		a := atom.Lookup(name)
		if len(skip) > 0 { // inside a skipped element: only its end (or the body, which ends a head) counts
			skip = skipping(skip, tt, a)
			if len(skip) > 0 || a != atom.Body {
				continue
			}
		}
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			if htmlSkipped[a] && tt == html.StartTagToken {
				skip = append(skip, a)
				continue
			}
			pre += htmlStart(&p, a)
		case html.EndTagToken:
			pre -= htmlEnd(&p, a, pre)
		case html.TextToken:
			if pre > 0 {
				p.add(string(z.Text()))
			} else {
				p.addCollapsed(string(z.Text()))
			}
		}
	}
	return content{text: p.text()}, nil
}

// skipping is the stack of skipped elements after a token: one of them
// nested again, or ended, or a head ended by the body.
func skipping(skip []atom.Atom, tt html.TokenType, a atom.Atom) []atom.Atom {
	top := skip[len(skip)-1]
	switch {
	case tt == html.StartTagToken && a == top:
		return append(skip, a)
	case tt == html.EndTagToken && a == top:
		return skip[:len(skip)-1]
	case a == atom.Body && top == atom.Head:
		return nil
	}
	return skip
}

// htmlStart begins an element: a paragraph, a heading, a list item, a cell,
// a line break; 1 when it begins preformatted text.
func htmlStart(p *paras, a atom.Atom) int {
	switch {
	case htmlHeadings[a] > 0:
		p.brk()
		p.heading(htmlHeadings[a])
	case a == atom.Li:
		p.brk()
		p.item()
	case htmlBlocks[a]:
		p.brk()
	case a == atom.Br:
		p.add("\n")
	case a == atom.Td || a == atom.Th:
		if len(p.cur) > 0 {
			p.add(" | ")
		}
	}
	if a == atom.Pre {
		return 1
	}
	return 0
}

// htmlEnd ends an element; 1 when it ends preformatted text (pre, the
// number open).
func htmlEnd(p *paras, a atom.Atom, pre int) int {
	if htmlHeadings[a] > 0 || htmlBlocks[a] {
		p.end()
	}
	if a == atom.Pre && pre > 0 {
		return 1
	}
	return 0
}

// htmlReader is the page decoded to UTF-8.
func htmlReader(data []byte) io.Reader {
	enc, _, certain := charset.DetermineEncoding(data, "text/html")
	if !certain && utf8.Valid(data) {
		return bytes.NewReader(data)
	}
	return enc.NewDecoder().Reader(bytes.NewReader(data))
}
