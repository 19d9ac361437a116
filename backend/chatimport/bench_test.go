package chatimport

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeChatGPT writes a ChatGPT export of n conversations of about 20
// messages each, as a heavy user's is: prompts of a few lines, answers of a
// few paragraphs with code, some Chinese, and every fourth conversation with a
// regenerated answer and an edited prompt.
func writeChatGPT(t testing.TB, path string, n int) (messages int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	type node struct {
		ID       string         `json:"id"`
		Message  map[string]any `json:"message"`
		Parent   *string        `json:"parent"`
		Children []string       `json:"children"`
	}
	answer := strings.Repeat("The slices package sorts in place and keeps equal elements in their order when you ask for a stable sort. ", 8) +
		"\n\n```go\nslices.SortStableFunc(people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })\n```\n\n" +
		strings.Repeat("这样写既简洁又高效，适合大多数场景。", 6)
	prompt := "How would I sort a list of people by age and then by name, keeping it stable? 我还想知道复杂度。"
	w.WriteString("[")
	base := 1.6e9
	for c := range n {
		mapping := map[string]*node{}
		root := fmt.Sprintf("c%d-root", c)
		mapping[root] = &node{ID: root}
		parent := root
		t0 := base + float64(c)*3600
		add := func(id, role, text string, at float64, under string) {
			p := under
			mapping[id] = &node{ID: id, Parent: &p, Children: []string{}, Message: map[string]any{
				"id": id, "author": map[string]any{"role": role}, "create_time": at, "recipient": "all",
				"content": map[string]any{"content_type": "text", "parts": []string{text}}, "metadata": map[string]any{}}}
			mapping[under].Children = append(mapping[under].Children, id)
			messages++
		}
		for m := range 20 {
			id := fmt.Sprintf("c%d-m%d", c, m)
			role, text := "user", fmt.Sprintf("%s (%d)", prompt, m)
			if m%2 == 1 {
				role, text = "assistant", answer
			}
			add(id, role, text, t0+float64(m)*30, parent)
			if c%4 == 0 && m == 9 { // a regenerated answer, shown
				add(id+"r", "assistant", "Another take: "+answer, t0+float64(m)*30+5, parent)
				id += "r"
			}
			if c%4 == 0 && m == 14 { // an edited prompt, not shown
				add(id+"e", "user", "Edited: "+text, t0+float64(m)*30+3, parent)
			}
			parent = id
		}
		conv := map[string]any{"title": fmt.Sprintf("Sorting question %d", c), "create_time": t0, "update_time": t0 + 600,
			"conversation_id": fmt.Sprintf("conv-%06d", c), "current_node": parent, "mapping": mapping}
		if c > 0 {
			w.WriteString(",\n")
		}
		b, _ := json.Marshal(conv)
		w.Write(b)
	}
	w.WriteString("]\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return messages
}

// BenchmarkImportChatGPT imports a 2,000-conversation ChatGPT export (41,000
// messages, 1,000 of them other versions) into a new data dir: the preview's reading and the
// import, whose budget is 20 s on two cores (README, "Bring your history").
func BenchmarkImportChatGPT(b *testing.B) {
	path := filepath.Join(b.TempDir(), "conversations.json")
	n := writeChatGPT(b, path, 2000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		st := newSessions(b)
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		src, p, err := Scan(f, ChatGPT, nil)
		if err != nil {
			b.Fatal(err)
		}
		res, err := st.ImportFrom(ctx, src, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Messages != n || p.Conversations != 2000 {
			b.Fatalf("imported %d of %d messages, previewed %d conversations", res.Messages, n, p.Conversations)
		}
		f.Close()
	}
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
	}
	b.ReportMetric(float64(n), "messages")
}
