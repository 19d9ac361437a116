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

// Flush writes the aligned lines out.
func (t *table) Flush() error {
	var lines [][][]byte
	for rest := t.text; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 { // the last line: a tab ending it opens no cell (tabwriter's Flush)
			last := bytes.Split(rest, []byte{'\t'})
			if n := len(last); n > 1 && len(last[n-1]) == 0 {
				last = last[:n-1]
			}
			lines = append(lines, last)
			break
		}
		lines = append(lines, bytes.Split(rest[:i], []byte{'\t'}))
		rest = rest[i+1:]
	}
	w := bufio.NewWriterSize(t.out, 32<<10)
	l := layout{lines: lines, w: w}
	l.format(0, len(lines))
	t.text = t.text[:0]
	return w.Flush()
}

// layout is one Flush: the lines' cells and the widths of the column blocks
// the recursion is in (tabwriter's format).
type layout struct {
	lines  [][][]byte
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
			width = max(width, utf8.RuneCount(l.lines[this][column])+tablePadding)
		}
		l.widths = append(l.widths, width)
		l.format(line0, this)
		l.widths = l.widths[:len(l.widths)-1]
		line0 = this
	}
	l.write(line0, line1)
}

// write writes lines [from, to): each cell in a block padded to its width,
// the rest as it is; every line but the buffer's last ends with a newline.
func (l *layout) write(from, to int) {
	for i := from; i < to; i++ {
		for j, c := range l.lines[i] {
			l.w.Write(c)
			if j < len(l.widths) {
				for range l.widths[j] - utf8.RuneCount(c) {
					l.w.WriteByte(' ')
				}
			}
		}
		if i+1 < len(l.lines) {
			l.w.WriteByte('\n')
		}
	}
}
