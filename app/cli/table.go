package cli

import (
	"bufio"
	"bytes"
	"io"
	"unicode/utf8"
)

// table is the command line's aligned columns: cells end with a tab, lines
// with a newline, and each column is as wide as its widest cell in the block
// of adjacent lines that have it, plus two spaces. That is text/tabwriter's
// layout with (minwidth 0, padding 2, pad ' ', no flags), byte for byte
// (TestTableIsTabwriter), done once at Flush over the buffered text: tabwriter
// inspected every byte as it was written, 5 % of `session list`'s process.
type table struct {
	out  io.Writer
	text []byte
}

const tablePadding = 2

func newTable(w io.Writer) *table { return &table{out: w} }

// Write buffers p; nothing is written before Flush.
func (t *table) Write(p []byte) (int, error) {
	t.text = append(t.text, p...)
	return len(p), nil
}

// Flush writes the aligned lines out. A form feed ends a line and every
// column block, as in tabwriter: what comes before it is laid out alone.
func (t *table) Flush() error {
	w := bufio.NewWriterSize(t.out, 32<<10)
	pieces := bytes.Split(t.text, []byte{'\f'})
	for i, piece := range pieces {
		if i < len(pieces)-1 {
			piece = append(piece[:len(piece):len(piece)], '\n')
		}
		l := layout{lines: cells(piece), w: w}
		l.format(0, len(l.lines))
	}
	t.text = t.text[:0]
	return w.Flush()
}

// cells cuts text into lines and their cells (ended by a tab or a vertical
// tab, as tabwriter's), each with its width in runes; the slices share one
// backing array of cells. As in tabwriter's Flush, a tab ending the text's
// last line opens no cell.
func cells(text []byte) [][]cell {
	all := make([]cell, 0, bytes.Count(text, []byte{'\t'})+bytes.Count(text, []byte{'\n'})+1)
	var lines [][]cell
	start, from := 0, 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && text[i] != '\t' && text[i] != '\v' && text[i] != '\n' {
			continue
		}
		all = append(all, cell{text[start:i], utf8.RuneCount(text[start:i])})
		start = i + 1
		if i == len(text) || text[i] == '\n' {
			line := all[from:len(all):len(all)]
			if i == len(text) && len(line) > 1 && line[len(line)-1].width == 0 {
				line = line[:len(line)-1]
			}
			lines = append(lines, line)
			from = len(all)
		}
	}
	return lines
}

// cell is one cell's text and its width in runes.
type cell struct {
	text  []byte
	width int
}

// layout is one Flush: the lines' cells and the widths of the column blocks
// the recursion is in (tabwriter's format).
type layout struct {
	lines  [][]cell
	widths []int
	w      *bufio.Writer
}

// format writes lines [line0, line1), opening a column block wherever a line
// has a cell in the next column.
func (l *layout) format(line0, line1 int) {
	column := len(l.widths)
	for this := line0; this < line1; this++ {
		if column >= len(l.lines[this])-1 {
			continue
		}
		l.write(line0, this)
		line0 = this
		width := 0
		for ; this < line1 && column < len(l.lines[this])-1; this++ {
			width = max(width, l.lines[this][column].width+tablePadding)
		}
		l.widths = append(l.widths, width)
		l.format(line0, this)
		l.widths = l.widths[:len(l.widths)-1]
		line0 = this
	}
	l.write(line0, line1)
}

const blanks = "                                                                "

// write writes lines [from, to): each cell in a block padded to its width,
// the rest as it is; every line but the buffer's last ends with a newline.
func (l *layout) write(from, to int) {
	for i := from; i < to; i++ {
		for j, c := range l.lines[i] {
			l.w.Write(c.text)
			if j < len(l.widths) {
				for pad := l.widths[j] - c.width; pad > 0; pad -= len(blanks) {
					l.w.WriteString(blanks[:min(pad, len(blanks))])
				}
			}
		}
		if i+1 < len(l.lines) {
			l.w.WriteByte('\n')
		}
	}
}
