package document

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// paras builds a document's text paragraph by paragraph (office.go,
// html.go): a blank line between paragraphs, a heading's Markdown "#" marks
// or a list item's "- " before its first line.
type paras struct {
	b      strings.Builder
	cur    []byte
	prefix string
}

// add adds text to the paragraph as it is.
func (p *paras) add(s string) { p.cur = append(p.cur, s...) }

// addCollapsed adds text with each run of white space as one space (HTML's
// and ODF's rule), and none at the start of a line.
func (p *paras) addCollapsed(s string) {
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			if n := len(p.cur); n > 0 && p.cur[n-1] != ' ' && p.cur[n-1] != '\n' {
				p.cur = append(p.cur, ' ')
			}
		case '\u00a0': // a no-break space is a space that is not collapsed
			p.cur = append(p.cur, ' ')
		default:
			p.cur = utf8.AppendRune(p.cur, r)
		}
	}
}

// heading makes the paragraph a heading of level n (1 to 6; 0: none).
func (p *paras) heading(n int) {
	if n > 0 && p.prefix == "" {
		p.prefix = strings.Repeat("#", min(n, 6)) + " "
	}
}

// item makes the paragraph a list item.
func (p *paras) item() {
	if p.prefix == "" {
		p.prefix = "- "
	}
}

// brk ends the paragraph if it has text; an empty one keeps its heading or
// item mark for the text to come (HTML's <li><p>…).
func (p *paras) brk() {
	if len(bytes.TrimSpace(p.cur)) > 0 {
		p.end()
	}
}

// end ends the paragraph; an empty one is dropped, with its mark.
func (p *paras) end() {
	lines := strings.Split(string(p.cur), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	sep := "\n"
	if strings.HasPrefix(p.prefix, "#") {
		sep = " " // a heading is one line
	}
	text := strings.TrimSpace(strings.Join(lines, sep))
	prefix := p.prefix
	p.cur, p.prefix = p.cur[:0], ""
	if text == "" {
		return
	}
	if p.b.Len() > 0 {
		p.b.WriteString("\n\n")
	}
	p.b.WriteString(prefix)
	p.b.WriteString(text)
}

// full is whether the text is past what a document may hold (it is refused
// then: reading on would be for nothing).
func (p *paras) full() bool { return p.b.Len()+len(p.cur) > MaxChars*4 }

// text ends the last paragraph and is the whole.
func (p *paras) text() string {
	p.end()
	return p.b.String()
}
