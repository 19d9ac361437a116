// Package chatimport reads the conversations other assistants export
// (ChatGPT's and Claude's conversations.json, Open WebUI's chat export) as the
// lines of a session import (session.ImportLine), so that the session store
// writes them as it writes its own (docs/architecture.md, "Who owns what").
//
// A file is read twice and never held whole: Scan decodes it one conversation
// at a time, checks each and counts what it holds (the Preview); the Source it
// returns reads it again from the start as import lines, and refuses a file
// that changed in between.
package chatimport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strings"
	"time"
	"unicode"

	"hermes/backend/session"
)

// ErrInvalid marks a file that is not what its format says: nothing of it is
// imported. It is the session import's own bad input, so every door words it
// as it words a bad import line.
var ErrInvalid = session.ErrInvalid

// Format is an export's maker.
type Format string

// The formats read.
const (
	ChatGPT   Format = "chatgpt"
	Claude    Format = "claude"
	OpenWebUI Format = "openwebui"
)

// Formats are the formats read, as the command line names them.
var Formats = []Format{ChatGPT, Claude, OpenWebUI}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case ChatGPT, Claude, OpenWebUI:
		return f, nil
	case "open-webui", "open_webui":
		return OpenWebUI, nil
	}
	return "", fmt.Errorf("%w: %q is no export format Hermes reads; use chatgpt, claude or openwebui", ErrInvalid, s)
}

// Name is the format as people call it.
func (f Format) Name() string {
	switch f {
	case ChatGPT:
		return "ChatGPT"
	case Claude:
		return "Claude"
	case OpenWebUI:
		return "Open WebUI"
	}
	return string(f)
}

// MaxConversationBytes is the most one conversation of a file may take: past
// it the file is refused (a field that large is no conversation).
const MaxConversationBytes = 64 << 20

// Preview counts what a file holds, before anything is written.
type Preview struct {
	Format        Format `json:"format"`
	Conversations int    `json:"conversations"`
	Messages      int    `json:"messages"`
	// Branches are the versions beside the shown one (regenerated replies,
	// edited prompts), counted in Messages too.
	Branches int `json:"branches"`
	// Skipped are the entries not carried: system and hidden messages, tool
	// calls and their results, empty ones, and conversations with nothing left.
	Skipped int `json:"skipped"`
	// Images are the pictures the file refers to; each becomes a line such as
	// [image: file-…] (the pictures themselves are not in the file).
	Images int `json:"images"`
	// Shortened are the messages cut to session.MaxMessageBytes.
	Shortened int `json:"shortened"`
	// First and Last are the oldest and newest message's time (zero when none has one).
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// Source is a checked file, read again as import lines (a session.ImportSource).
type Source struct {
	f       Format
	r       io.ReadSeeker
	start   int64
	lines   int
	sum     uint32
	dec     *decoder
	pending []session.ImportLine
	done    bool
}

// Scan reads every conversation of r (an export of format f), checks it and
// counts it; nothing is kept but the counts. A bad file is ErrInvalid, and the
// message says which conversation is wrong and how. progress (optional) hears
// the bytes read so far and the file's size.
func Scan(r io.ReadSeeker, f Format, progress func(done, total int64)) (*Source, Preview, error) {
	p := Preview{Format: f}
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, p, fmt.Errorf("read %s export: %w", f.Name(), err)
	}
	size, err := r.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = r.Seek(start, io.SeekStart)
	}
	if err != nil {
		return nil, p, fmt.Errorf("read %s export: %w", f.Name(), err)
	}
	sum := newSum()
	count := &counter{r: io.TeeReader(r, sum)}
	d, err := newDecoder(count, f)
	if err != nil {
		return nil, p, err
	}
	for {
		c, ok, err := d.next()
		if err != nil {
			return nil, p, err
		}
		if !ok {
			break
		}
		lines, st, err := c.lines()
		if err != nil {
			return nil, p, fmt.Errorf("%w: %s", ErrInvalid, d.where(c, err))
		}
		p.add(st, len(lines))
		if progress != nil {
			progress(count.n, size-start)
		}
	}
	return &Source{f: f, r: r, start: start, lines: p.Messages, sum: sum.Sum32()}, p, nil
}

// add counts one conversation.
func (p *Preview) add(st stats, lines int) {
	p.Skipped += st.skipped
	if lines == 0 {
		p.Skipped++ // a conversation with nothing to carry
		return
	}
	p.Conversations++
	p.Messages += lines
	p.Branches += st.branches
	p.Images += st.images
	p.Shortened += st.shortened
	if !st.first.IsZero() && (p.First.IsZero() || st.first.Before(p.First)) {
		p.First = st.first
	}
	if st.last.After(p.Last) {
		p.Last = st.last
	}
}

// Len is how many lines the file gives (the messages carried).
func (s *Source) Len() int { return s.lines }

// Next is the next import line; the first call reads the file again from where
// Scan began. A file that reads differently than it did is ErrInvalid.
func (s *Source) Next() (session.ImportLine, bool, error) {
	for len(s.pending) == 0 {
		if s.done {
			return session.ImportLine{}, false, nil
		}
		if err := s.fill(); err != nil {
			return session.ImportLine{}, false, err
		}
	}
	l := s.pending[0]
	s.pending = s.pending[1:]
	return l, true, nil
}

// changed is the error of a file that changed between its two readings.
var changed = fmt.Errorf("%w: the file changed while it was imported; import it again", ErrInvalid)

// fill reads the next conversation's lines.
func (s *Source) fill() error {
	if s.dec == nil {
		if _, err := s.r.Seek(s.start, io.SeekStart); err != nil {
			return fmt.Errorf("read %s export again: %w", s.f.Name(), err)
		}
		sum := newSum()
		d, err := newDecoder(&counter{r: io.TeeReader(s.r, sum)}, s.f)
		if err != nil {
			return changed
		}
		d.sum = sum
		s.dec = d
	}
	c, ok, err := s.dec.next()
	if err != nil {
		return changed
	}
	if !ok {
		s.done = true
		if s.dec.sum.Sum32() != s.sum {
			return changed
		}
		return nil
	}
	lines, _, err := c.lines()
	if err != nil {
		return changed
	}
	s.pending = lines
	return nil
}

func newSum() hash.Hash32 { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }

// counter counts the bytes read through it, and refuses to read more than
// limit of them since the last reset (one conversation's worth).
type counter struct {
	r     io.Reader
	n     int64
	mark  int64
	limit int64
}

func (c *counter) Read(p []byte) (int, error) {
	if c.limit > 0 {
		left := c.limit - (c.n - c.mark)
		if left <= 0 {
			return 0, errTooBig
		}
		if int64(len(p)) > left {
			p = p[:left]
		}
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

var errTooBig = errors.New("too big")

// decoder reads a file's conversations one at a time: a JSON array of them
// (or one conversation alone, as a single chat's export is).
type decoder struct {
	f     Format
	in    *counter
	dec   *json.Decoder
	one   bool // the file is one conversation, not an array
	index int  // the conversation read last, from 1
	ended bool
	sum   hash.Hash32
}

func newDecoder(c *counter, f Format) (*decoder, error) {
	br := bufio.NewReader(c)
	first, err := firstByte(br)
	if err != nil {
		return nil, fmt.Errorf("%w: the file is empty or unreadable (%v); export your %s conversations again and give that file", ErrInvalid, err, f.Name())
	}
	d := &decoder{f: f, in: c, dec: json.NewDecoder(br)}
	switch first {
	case '[':
		if _, err := d.dec.Token(); err != nil {
			return nil, d.syntax(err)
		}
	case '{':
		d.one = true
	default:
		return nil, fmt.Errorf("%w: the file is not a JSON export (it starts with %q); give the conversations.json of a %s export", ErrInvalid, first, f.Name())
	}
	c.limit = MaxConversationBytes
	return d, nil
}

// firstByte is the first byte after white space (and a byte-order mark), left unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case 0xEF: // the UTF-8 byte-order mark
			if rest, err := br.Peek(2); err == nil && bytes.Equal(rest, []byte{0xBB, 0xBF}) {
				br.Discard(2)
				continue
			}
		}
		return b, br.UnreadByte()
	}
}

// next decodes the next conversation; false after the last.
func (d *decoder) next() (*conversation, bool, error) {
	if d.ended {
		return nil, false, nil
	}
	if !d.one && !d.dec.More() {
		if _, err := d.dec.Token(); err != nil { // the closing bracket
			return nil, false, d.syntax(err)
		}
		return nil, false, d.end()
	}
	d.index++
	d.in.mark = d.in.n
	c, err := decodeOne(d.dec, d.f)
	if err != nil {
		return nil, false, d.bad(err)
	}
	if d.one {
		if err := d.end(); err != nil {
			return nil, false, err
		}
	}
	return c, true, nil
}

// end checks that nothing but white space follows the last conversation.
func (d *decoder) end() error {
	d.ended = true
	if _, err := d.dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: there is more after the end of the JSON data; give the conversations.json file unchanged", ErrInvalid)
	}
	return nil
}

// bad words a conversation that failed to decode.
func (d *decoder) bad(err error) error {
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, errTooBig):
		return fmt.Errorf("%w: conversation %d is over %d MiB, more than any conversation holds; give the conversations.json of a %s export unchanged",
			ErrInvalid, d.index, MaxConversationBytes>>20, d.f.Name())
	case errors.As(err, &te):
		field := printable(te.Field)
		if field == "" {
			field = "the conversation"
		}
		return fmt.Errorf("%w: conversation %d: %s is a JSON %s where a %s export has %s; is this a %s export?",
			ErrInvalid, d.index, field, te.Value, d.f.Name(), kindOf(te.Type.Kind().String()), d.f.Name())
	case errors.Is(err, errShape):
		return fmt.Errorf("%w: conversation %d: %v; is this a %s export?", ErrInvalid, d.index, err, d.f.Name())
	}
	return d.syntax(err)
}

var errShape = errors.New("wrong shape")

// printable is a name from the file fit for a message: no control characters
// (a terminal obeys some), at most 120 characters.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}

// kindOf words a Go kind as JSON.
func kindOf(k string) string {
	switch k {
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "string":
		return "a string"
	case "float64", "int", "int64":
		return "a number"
	}
	return "a " + k
}

// syntax words broken JSON.
func (d *decoder) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%w: the file is not valid JSON near byte %d (%v); export your %s conversations again, the file may be cut short",
			ErrInvalid, se.Offset, se, d.f.Name())
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the file ends in the middle of conversation %d; export your %s conversations again, it was cut short",
			ErrInvalid, max(d.index, 1), d.f.Name())
	}
	if errors.Is(err, errTooBig) {
		return d.bad(err)
	}
	return fmt.Errorf("read %s export: %w", d.f.Name(), err)
}

// where names a conversation in an error.
func (d *decoder) where(c *conversation, err error) string {
	if c.title != "" {
		return fmt.Sprintf("conversation %d (%q): %v", d.index, printable(c.title), err)
	}
	return fmt.Sprintf("conversation %d: %v", d.index, err)
}

// decodeOne decodes one conversation of format f.
func decodeOne(dec *json.Decoder, f Format) (*conversation, error) {
	switch f {
	case ChatGPT:
		return decodeChatGPT(dec)
	case Claude:
		return decodeClaude(dec)
	case OpenWebUI:
		return decodeOpenWebUI(dec)
	}
	return nil, fmt.Errorf("%w: unknown format %q", ErrInvalid, f)
}
