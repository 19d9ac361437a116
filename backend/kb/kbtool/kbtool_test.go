package kbtool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/kb"
	"hermes/backend/tools"
)

type fixed []kb.Hit

func (f fixed) RelevantIn(context.Context, string, []int64, int) ([]kb.Hit, error) { return f, nil }
func (f fixed) CollectionID(context.Context, string) (int64, error)                { return 2, nil }

// Passages reach the model numbered, with their file and page, and a note to
// cite them as [n]; with none, the note says to invent nothing. The tool is
// offered only while a collection exists.
func TestKnowledgeSearch(t *testing.T) {
	tool := New(fixed{{Chunk: 1, File: "manual.pdf", Page: 3, Text: "Bleed the valve.", Collection: "field"}, {Chunk: 2, File: "a.md", Text: "x"}})
	out, err := tool.(*tools.Func).Fn(context.Background(), json.RawMessage(`{"query":"valve"}`))
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if json.Unmarshal(out, &r) != nil || len(r.Sources) != 2 || r.Sources[0].N != 1 || r.Sources[0].Page != 3 || r.Sources[1].N != 2 || !strings.Contains(r.Note, "[n]") {
		t.Fatalf("result %s", out)
	}
	if none := result(nil); len(none.Sources) != 0 || !strings.Contains(none.Note, "do not invent") {
		t.Fatalf("no sources: %+v", none)
	}
	// In a turn, the tool's passages continue the numbers of those offered at
	// once, and one offered again keeps its number.
	book := NewBook()
	book.Add([]kb.Hit{{Chunk: 7, File: "auto.md"}})
	out, _ = tool.(*tools.Func).Fn(WithBook(context.Background(), book), json.RawMessage(`{"query":"valve"}`))
	if json.Unmarshal(out, &r) != nil || r.Sources[0].N != 2 || r.Sources[1].N != 3 || len(book.All()) != 3 {
		t.Fatalf("numbering in a turn: %s", out)
	}
	if again := book.Add([]kb.Hit{{Chunk: 7}}); again[0].N != 1 {
		t.Fatalf("a passage offered twice got number %d", again[0].N)
	}
	// A chat limited to other collections finds nothing in the one named.
	out, _ = tool.(*tools.Func).Fn(WithCollections(context.Background(), []int64{1}), json.RawMessage(`{"query":"valve","collection":"field"}`))
	if json.Unmarshal(out, &r) != nil || len(r.Sources) != 0 {
		t.Fatalf("outside the chat's collections: %s", out)
	}
	reg := tools.NewRegistry()
	if err := Register(reg, fixed{}, false, func(string, bool) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckSchemas(); err != nil { // compiled when first called: they must compile
		t.Fatal(err)
	}
	if got := reg.Tools(reg.InGroup(tools.GroupReadOnly)); len(got) != 0 {
		t.Fatalf("offered without a collection: %v", got)
	}
	reg.Activate(Name, true)
	if got := reg.Tools(reg.InGroup(tools.GroupReadOnly)); len(got) != 1 {
		t.Fatalf("not offered with a collection: %v", got)
	}
}
