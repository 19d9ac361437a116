package session

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"hermes/backend/document/documenttest"
)

// TestExportHTML: the page carries the conversation rendered (Markdown, code,
// Chinese), its attached image inline, and nothing that could run or load:
// raw HTML, script, event handlers and javascript: links from the text are
// left out or escaped.
func TestExportHTML(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, `Plans <script>alert("title")</script>`)
	jpg := documenttest.JPEG(documenttest.Photo(64, 48), 85)
	d, err := st.AddDocument(ctx, Document{Name: `cat".jpg`, Kind: KindImage, Tokens: 10, Data: jpg, Mime: "image/jpeg", Width: 64, Height: 48})
	if err != nil {
		t.Fatal(err)
	}
	c := "看看这张照片 **please**\n\n<script>alert(1)</script><img src=x onerror=alert(2)>\n\n[click](javascript:alert(3))\n\n" +
		DocumentRef{ID: d.ID, Name: d.Name, Kind: d.Kind, Tokens: d.Tokens}.Tag()
	u, err := st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: c})
	if err != nil {
		t.Fatal(err)
	}
	st.LinkDocuments(ctx, u.ID, DocumentIDs(c))
	st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Thinking: "the user wants <b>code</b>",
		Content: "Here:\n\n```go\nif a < b && c > d {\n\tfmt.Println(\"小猫\")\n}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |"})
	stored, err := st.MessageDocuments(ctx, u.ID)
	if err != nil || len(stored) != 1 {
		t.Fatalf("attached: %v %v", stored, err)
	}
	page, err := st.ExportHTML(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<title>Plans &lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;</title>",
		"看看这张照片 <strong>please</strong>",
		`<pre><code class="language-go">if a &lt; b &amp;&amp; c &gt; d {`,
		"fmt.Println(&quot;小猫&quot;)",
		"<table>",
		`<img src="data:image/jpeg;base64,` + base64.StdEncoding.EncodeToString(stored[0].Data) + `" alt="cat&#34;.jpg" width="64" height="48">`,
		"<summary>Thinking</summary>",
		`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`,
		`<meta charset="utf-8">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %.100q", want)
		}
	}
	for _, bad := range []string{"<script", "onerror", "javascript:", "<b>code</b>", "http://", "https://", "[doc:"} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// TestExportPDF: the session becomes a PDF (its text checked in pdfdoc's
// tests); an unknown session is not found.
func TestExportPDF(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "旅行计划")
	st.Append(ctx, Message{SessionID: s.ID, Role: "user", Content: "去京都玩三天，怎么安排？"})
	st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "**Day 1**: Fushimi Inari 伏见稻荷"})
	var b strings.Builder
	stats, err := st.ExportPDF(ctx, s.ID, &b)
	if err != nil || !strings.HasPrefix(b.String(), "%PDF-") || stats.Pages != 1 || stats.Missing != 0 {
		t.Fatalf("pdf: %+v, %v, %.8q", stats, err, b.String())
	}
	if _, err := st.ExportPDF(ctx, "nope", &b); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
}

// A bare web address in a reply is a link in the export, as in the window
// (GFM's autolinks, from the linkify patterns third_party/goldmark compiles
// when first used).
func TestExportHTMLLinksBareAddresses(t *testing.T) {
	ctx := context.Background()
	st, _ := newStore(t)
	s, _ := st.Create(ctx, "links")
	st.Append(ctx, Message{SessionID: s.ID, Role: "assistant", Content: "See https://example.org/manual?page=2 and www.example.net today."})
	page, err := st.ExportHTML(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<a href="https://example.org/manual?page=2">https://example.org/manual?page=2</a>`, `<a href="http://www.example.net">www.example.net</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
