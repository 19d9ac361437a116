package chunk

import "unicode"

// blocks cuts text into paragraphs (runs of non-blank lines) and heading lines,
// each on one page.
func blocks(rs []rune, pages []int, headings bool) []block {
	var out []block
	page, next := pageAt(pages, 0)
	para := -1 // start of the open paragraph
	closePara := func(at int) {
		if para >= 0 {
			out = append(out, block{start: para, end: at, page: page})
			para = -1
		}
	}
	for i := 0; i < len(rs); {
		if next >= 0 && i >= next {
			closePara(i)
			page, next = pageAt(pages, i)
		}
		end := lineEnd(rs, i, next)
		switch {
		case blank(rs[i:end]):
			closePara(i)
		case headings && headingLevel(rs[i:end]) > 0:
			closePara(i)
			out = append(out, block{start: i, end: end, heading: headingLevel(rs[i:end]), page: page})
		case para < 0:
			para = i
		}
		i = end
		if i < len(rs) && (rs[i] == '\n' || rs[i] == '\f') {
			i++
		}
	}
	closePara(len(rs))
	return out
}

// lineEnd is the end of the line at i (before its newline), or the next page's start.
func lineEnd(rs []rune, i, next int) int {
	for i < len(rs) && rs[i] != '\n' && rs[i] != '\f' && (next < 0 || i < next) {
		i++
	}
	return i
}

// pageAt is the 1-based page holding offset at and where the next page begins
// (-1 when it is the last); 0 and -1 for a text without pages.
func pageAt(pages []int, at int) (int, int) {
	if len(pages) == 0 {
		return 0, -1
	}
	p := 0
	for p+1 < len(pages) && pages[p+1] <= at {
		p++
	}
	if p+1 < len(pages) {
		return p + 1, pages[p+1]
	}
	return p + 1, -1
}

func blank(line []rune) bool {
	for _, r := range line {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// headingLevel is a Markdown ATX heading's level ("## Title" is 2), else 0.
func headingLevel(line []rune) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n == len(line) || (line[n] != ' ' && line[n] != '\t') {
		return 0
	}
	return n
}
