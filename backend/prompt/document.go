package prompt

import (
	"fmt"
	"sort"
	"strings"
)

// ReasonDocument is an attached document, whole or one of its chunks.
const ReasonDocument Reason = "document"

// Document is a file's text attached to a message of the conversation, or an
// image (Image the encoded bytes the model is sent, Width×Height its size).
type Document struct {
	ID     string
	Name   string
	Text   string
	Image  []byte
	Width  int
	Height int
	// ImageTokens is what the image costs a vision model, as estimated when it
	// was attached (document.ImageTokens).
	ImageTokens int
}

// ImageItem is how an image is named to the model, in the message that
// carries it: a fenced note with its file name and size.
func ImageItem(name string, w, h int) string {
	return Fence(KindDocument, name, fmt.Sprintf("An image of %d×%d pixels, attached to this message.", w, h), "type", "image")
}

// imageItem is an image document as one item: never chunked, its tokens the
// vision model's estimate for its size (Document.ImageTokens) and its note's.
func imageItem(d Document) Item {
	c := ImageItem(d.Name, d.Width, d.Height)
	return Item{Reason: ReasonDocument, Role: "user", Content: c, Images: [][]byte{d.Image},
		Tokens: d.ImageTokens + Estimate(c) + MessageOverhead, Ref: d.ID}
}

// Document policy defaults.
const (
	// DefaultChunkTokens is the size of a document chunk when a document does not fit whole.
	DefaultChunkTokens = 300
	// DefaultDocumentShare is the share of the budget left after the system prompt,
	// query, tool schemas and memories that documents may take (history gets the rest).
	DefaultDocumentShare = 0.6
)

type chunk struct {
	doc, part, parts int
	text             string
	tokens           int
	score            float64
}

// DocumentItem is a document (or one of its parts) as the model reads it: fenced
// data named by its file.
func DocumentItem(name string, part, parts int, text string) string {
	if parts <= 1 {
		return Fence(KindDocument, name, text)
	}
	return Fence(KindDocument, name, text, "part", fmt.Sprintf("%d of %d", part, parts), "chosen", "the parts most relevant to the question")
}

// documents fits the documents into room tokens (already calibrated by cost):
// each whole when all fit, else the images that fit whole, in document order
// (the query's first), then text chunks ranked by relevance to the query in
// the room left, shown in document order. An image is never cut: one that
// does not fit is left out. It returns the items and the tokens they cost.
func (b *Builder) documents(docs []Document, query string, room int, cost func(int) int) ([]Item, int) {
	if len(docs) == 0 || room <= 0 {
		return nil, 0
	}
	whole := make([]Item, 0, len(docs))
	total := 0
	for _, d := range docs {
		if d.Image != nil {
			it := imageItem(d)
			whole = append(whole, it)
			total += cost(it.Tokens)
			continue
		}
		c := DocumentItem(d.Name, 1, 1, d.Text)
		it := Item{Reason: ReasonDocument, Role: "user", Content: c, Tokens: Estimate(c) + MessageOverhead, Ref: d.ID}
		whole = append(whole, it)
		total += cost(it.Tokens)
	}
	if total <= room {
		return whole, total
	}
	used := 0
	images := map[int]Item{}
	for i, d := range docs {
		if d.Image == nil {
			continue
		}
		if it := whole[i]; used+cost(it.Tokens) <= room {
			used += cost(it.Tokens)
			images[i] = it
		}
	}
	size := b.ChunkTokens
	if size <= 0 {
		size = DefaultChunkTokens
	}
	var chunks []*chunk
	for i, d := range docs {
		if d.Image != nil {
			continue
		}
		parts := Chunks(d.Text, size)
		for j, p := range parts {
			chunks = append(chunks, &chunk{doc: i, part: j + 1, parts: len(parts), text: p})
		}
	}
	sets := make([]map[string]bool, len(chunks))
	for i, c := range chunks {
		sets[i] = map[string]bool{}
		for _, t := range Terms(c.text) {
			sets[i][t] = true
		}
	}
	for i, s := range relevance(sets, dedupe(Terms(query))) {
		chunks[i].score = s
	}
	ranked := append([]*chunk(nil), chunks...)
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	chosen := map[*chunk]bool{}
	for _, c := range ranked {
		content := DocumentItem(docs[c.doc].Name, c.part, c.parts, c.text)
		c.text, c.tokens = content, Estimate(content)+MessageOverhead
		if used+cost(c.tokens) > room {
			continue
		}
		used += cost(c.tokens)
		chosen[c] = true
	}
	var out []Item
	next := 0 // chunks are in document order
	for i := range docs {
		if it, ok := images[i]; ok {
			out = append(out, it)
		}
		for ; next < len(chunks) && chunks[next].doc == i; next++ {
			if c := chunks[next]; chosen[c] {
				out = append(out, Item{Reason: ReasonDocument, Role: "user", Content: c.text, Tokens: c.tokens, Ref: docs[c.doc].ID, Seq: c.part})
			}
		}
	}
	return out, used
}

// Chunks splits text into pieces of about size tokens, at paragraph and line
// breaks where it can.
func Chunks(text string, size int) []string {
	var out []string
	var cur strings.Builder
	curTok := 0
	flush := func() {
		if s := strings.Trim(cur.String(), "\n"); strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
		cur.Reset()
		curTok = 0
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		t := Estimate(line)
		for t > size { // one long line: cut it
			flush()
			head := shorten(line, size)
			head = strings.TrimSuffix(head, " […]")
			if head == "" {
				break
			}
			out = append(out, head)
			line = line[len(head):]
			t = Estimate(line)
		}
		if curTok+t > size && curTok > 0 {
			flush()
		}
		cur.WriteString(line)
		curTok += t
	}
	flush()
	return out
}

// relevance is each set's IDF-weighted share of the query's terms.
func relevance(sets []map[string]bool, qterms []string) []float64 {
	scores := make([]float64, len(sets))
	if len(qterms) == 0 || len(sets) == 0 {
		return scores
	}
	df := make(map[string]int, len(qterms))
	for _, set := range sets {
		for _, q := range qterms {
			if set[q] {
				df[q]++
			}
		}
	}
	idf := idfs(qterms, df, len(sets))
	total := 0.0
	for _, q := range qterms {
		total += idf[q]
	}
	for i, set := range sets {
		s := 0.0
		for _, q := range qterms {
			if set[q] {
				s += idf[q]
			}
		}
		scores[i] = s / total
	}
	return scores
}

// KnowledgeItem is a passage of the user's documents as the model reads it:
// fenced data named by its file, with the number the reply cites it by ([n]),
// its page and heading when it has them.
func KnowledgeItem(n int, file string, page int, heading, text string) string {
	attrs := []string{"n", fmt.Sprint(n)}
	if page > 0 {
		attrs = append(attrs, "page", fmt.Sprint(page))
	}
	if heading != "" {
		attrs = append(attrs, "heading", heading)
	}
	return Fence(KindKnowledge, file, text, attrs...)
}

// CiteRule is what the system prompt says when passages are offered.
const CiteRule = "Passages of the user's documents come as <data kind=\"knowledge\" n=\"N\" …>: answer from them and cite each one you use as [N]. Cite nothing else."
