package prompt

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestDocumentsInPrompt(t *testing.T) {
	small := Document{ID: "d1", Name: "note.txt", Text: "The boiler was serviced in March by Ada."}
	var long strings.Builder
	for i := range 120 {
		fmt.Fprintf(&long, "Paragraph %d talks about gardening, tomatoes and the weather in spring.\n\n", i)
		if i == 77 {
			long.WriteString("The invoice number for the zeppelin repair is 4711 and it is due in June.\n\n")
		}
	}
	big := Document{ID: "d2", Name: "big.pdf", Text: long.String()}

	t.Run("fits whole", func(t *testing.T) {
		c := NewBuilder().Build(context.Background(), Input{System: "sys", Query: "when was the boiler serviced?", Documents: []Document{small}, Budget: 2000})
		docs := itemsOf(c, ReasonDocument)
		if len(docs) != 1 || !strings.Contains(docs[0].Content, small.Text) || docs[0].Ref != "d1" || !strings.Contains(docs[0].Content, `"note.txt"`) {
			t.Fatalf("document items = %+v", docs)
		}
		if c.Tokens > c.Budget {
			t.Errorf("tokens %d over budget %d", c.Tokens, c.Budget)
		}
		if last := c.Items[len(c.Items)-1]; last.Reason != ReasonQuery {
			t.Errorf("last item %s, want the query", last.Reason)
		}
	})
	t.Run("chunks by relevance when too big", func(t *testing.T) {
		c := NewBuilder().Build(context.Background(), Input{System: "sys", Query: "what is the zeppelin invoice number?", Documents: []Document{big}, Budget: 1500})
		docs := itemsOf(c, ReasonDocument)
		if len(docs) == 0 {
			t.Fatal("no chunks")
		}
		found, prev := false, 0
		for _, d := range docs {
			if strings.Contains(d.Content, "4711") {
				found = true
			}
			if d.Seq <= prev {
				t.Errorf("chunks out of order: %d after %d", d.Seq, prev)
			}
			prev = d.Seq
			if !strings.Contains(d.Content, `part="`) {
				t.Errorf("chunk without its part header: %q", d.Content[:40])
			}
		}
		if !found {
			t.Error("the relevant chunk was not chosen")
		}
		if c.Tokens > c.Budget {
			t.Errorf("tokens %d over budget %d", c.Tokens, c.Budget)
		}
		total := 0
		for _, d := range docs {
			total += d.Tokens
		}
		if total > int(float64(1500)*DefaultDocumentShare) {
			t.Errorf("documents took %d tokens, more than their share", total)
		}
	})
	t.Run("history keeps its recent turns", func(t *testing.T) {
		h := conv("what about the tomatoes?", "They need sun.")
		c := NewBuilder().Build(context.Background(), Input{Query: "and the zeppelin invoice?", History: h, Documents: []Document{big}, Budget: 1500})
		if len(itemsOf(c, ReasonRecent)) != 2 {
			t.Errorf("recent turn left out: %+v", c.Items)
		}
	})
}

func TestChunks(t *testing.T) {
	text := strings.Repeat("word ", 2000) + "\nshort line\n" + strings.Repeat("中文", 500)
	parts := Chunks(text, 100)
	if len(parts) < 10 {
		t.Fatalf("%d parts", len(parts))
	}
	joined := 0
	for _, p := range parts {
		if e := Estimate(p); e > 100 {
			t.Errorf("part of %d tokens", e)
		}
		joined += len(strings.TrimSpace(p))
	}
	if joined < len(strings.TrimSpace(text))-200 {
		t.Errorf("text lost: %d of %d bytes", joined, len(text))
	}
}

func itemsOf(c Context, r Reason) []Item {
	var out []Item
	for _, it := range c.Items {
		if it.Reason == r {
			out = append(out, it)
		}
	}
	return out
}

// An image is one item, whole: its bytes ride the item (not its text), its
// tokens are the vision estimate for its size; when documents do not all fit,
// the images that fit come whole (the query's first), an image that does not
// is left out, and text is chunked into the room left.
func TestImagesInPrompt(t *testing.T) {
	photo := Document{ID: "i1", Name: "pump.jpg", Image: []byte("\xff\xd8\xffjpeg bytes"), Width: 1024, Height: 768, ImageTokens: 37 * 28}
	older := Document{ID: "i2", Name: "old.png", Image: []byte("\x89PNG older"), Width: 1024, Height: 768, ImageTokens: 37 * 28}
	var long strings.Builder
	for i := range 200 {
		fmt.Fprintf(&long, "Paragraph %d is about gardening and the weather in spring.\n\n", i)
	}
	long.WriteString("The pump's serial number is QX-5512.\n\n")
	manual := Document{ID: "d1", Name: "manual.txt", Text: long.String()}
	imageTokens := 37*28 + Estimate(ImageItem("pump.jpg", 1024, 768)) + MessageOverhead

	t.Run("fits whole", func(t *testing.T) {
		c := NewBuilder().Build(context.Background(), Input{System: "sys", Query: "what is broken here?", Documents: []Document{photo}, Budget: 4000})
		docs := itemsOf(c, ReasonDocument)
		if len(docs) != 1 {
			t.Fatalf("items = %+v", docs)
		}
		it := docs[0]
		if len(it.Images) != 1 || string(it.Images[0]) != string(photo.Image) || it.Ref != "i1" || it.Role != "user" {
			t.Fatalf("image item = %+v", it)
		}
		if !strings.Contains(it.Content, `source="pump.jpg"`) || !strings.Contains(it.Content, "1024×768") || strings.Contains(it.Content, "jpeg bytes") {
			t.Errorf("content = %q", it.Content)
		}
		if it.Tokens != imageTokens {
			t.Errorf("tokens = %d, want %d", it.Tokens, imageTokens)
		}
		if !strings.Contains(c.Items[0].Content, FenceRule) {
			t.Errorf("the system prompt lacks the fence rule")
		}
	})
	t.Run("images whole first, then text chunks", func(t *testing.T) {
		// Room for one image and some chunks, not for two images.
		c := NewBuilder().Build(context.Background(), Input{System: "sys", Query: "what is the pump's serial number?",
			Documents: []Document{photo, manual, older}, Budget: 3000})
		docs := itemsOf(c, ReasonDocument)
		var imgs []string
		chunks := 0
		for _, d := range docs {
			if len(d.Images) > 0 {
				imgs = append(imgs, d.Ref)
			} else if d.Ref == "d1" {
				chunks++
				if !strings.Contains(d.Content, `part="`) {
					t.Errorf("a whole manual in a prompt too small for it")
				}
			}
		}
		if len(imgs) != 1 || imgs[0] != "i1" || docs[0].Ref != "i1" {
			t.Fatalf("images = %v, want the query's only, first", imgs)
		}
		if chunks == 0 || !strings.Contains(fmt.Sprint(docs), "QX-5512") {
			t.Errorf("no relevant chunk in the room left: %d chunks", chunks)
		}
		if c.Tokens > c.Budget {
			t.Errorf("tokens %d over budget %d", c.Tokens, c.Budget)
		}
	})
	t.Run("an image that does not fit is left out, not cut", func(t *testing.T) {
		c := NewBuilder().Build(context.Background(), Input{Query: "look", Documents: []Document{photo}, Budget: 900})
		if docs := itemsOf(c, ReasonDocument); len(docs) != 0 {
			t.Fatalf("items = %+v", docs)
		}
	})
}
