package session

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// markdown renders message text as the window does: CommonMark with GitHub's
// tables, strikethrough and task lists. Raw HTML in the text is left out (the
// renderer's default), and links with a dangerous scheme (javascript: …) lose
// their target. Made when first used: a command that exports nothing does
// not build it.
var markdown = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(extension.GFM)) })

// htmlMessage is one message of an HTML export, its text already rendered.
type htmlMessage struct {
	Who, When, Role string
	Body            template.HTML
	Thinking        template.HTML
	Status          string
	Images          []htmlImage
	Files           []ExportDocument
}

type htmlImage struct {
	Name, Src     string
	Width, Height int
}

// ExportHTML renders a session as one self-contained HTML page: its style
// inline, its attached images as data: URIs, no script, and a content
// security policy that lets the page load nothing from anywhere.
func (st *Store) ExportHTML(ctx context.Context, id string) (string, error) {
	e, err := st.ExportJSON(ctx, id)
	if err != nil {
		return "", err
	}
	page := struct {
		Title, Started string
		Count          int
		Messages       []htmlMessage
	}{Title: e.Session.Title, Started: day(e.Session.CreatedAt), Count: len(e.Messages)}
	if page.Title == "" {
		page.Title = "Conversation"
	}
	names := map[string]string{"user": "You", "assistant": "Hermes", "system": "System", "tool": "Tool"}
	for _, m := range e.Messages {
		hm := htmlMessage{Who: names[m.Role], When: day(m.CreatedAt), Role: m.Role}
		if m.Channel != "" && m.Channel != MainChannel {
			hm.Who += " · " + m.Channel
		}
		if hm.Body, err = render(WithoutDocumentRefs(m.Content)); err != nil {
			return "", fmt.Errorf("export html: %w", err)
		}
		if m.Thinking != "" {
			if hm.Thinking, err = render(m.Thinking); err != nil {
				return "", fmt.Errorf("export html: %w", err)
			}
		}
		if m.Status != StatusOK {
			hm.Status = m.Status
		}
		for _, d := range m.Documents {
			if d.Kind == KindImage && strings.HasPrefix(d.Mime, "image/") {
				hm.Images = append(hm.Images, htmlImage{Name: d.Name, Width: d.Width, Height: d.Height,
					Src: "data:" + d.Mime + ";base64," + base64.StdEncoding.EncodeToString(d.Data)})
				continue
			}
			hm.Files = append(hm.Files, d)
		}
		page.Messages = append(page.Messages, hm)
	}
	var b strings.Builder
	if err := htmlPage.Execute(&b, page); err != nil {
		return "", fmt.Errorf("export html: %w", err)
	}
	return b.String(), nil
}

// render is Markdown as safe HTML.
func render(text string) (template.HTML, error) {
	var b bytes.Buffer
	if err := markdown().Convert([]byte(text), &b); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil // goldmark escapes text and omits raw HTML
}

// day is a stored time as people read it (UTC).
func day(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// htmlPage is the export's page. Its data: URIs are the attached images,
// written as a whole attribute by srcAttr (html/template refuses data: URLs,
// and would escape each + of the base64 text).
var htmlPage = template.Must(template.New("export").Funcs(template.FuncMap{
	"srcAttr": func(s string) template.HTMLAttr {
		if !strings.HasPrefix(s, "data:image/") || strings.ContainsAny(s, "\"'<>& ") {
			return ""
		}
		return template.HTMLAttr(`src="` + s + `"`)
	},
}).Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="generator" content="Hermes">
<title>{{.Title}}</title>
<style>
:root { color-scheme: light dark; --fg: #1d1d1f; --muted: #6b6b70; --bg: #ffffff; --card: #f5f5f7; --border: #dcdce0; --code: #f0f0f3; --accent: #3a5ccc; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8ea; --muted: #a0a0a8; --bg: #1b1b1d; --card: #242427; --border: #3a3a3f; --code: #2c2c30; --accent: #8ea6ff; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "PingFang SC", "Microsoft YaHei", sans-serif; }
main { max-width: 820px; margin: 0 auto; padding: 32px 20px 64px; }
header h1 { margin: 0 0 4px; font-size: 24px; line-height: 1.3; overflow-wrap: anywhere; }
header p { margin: 0 0 24px; color: var(--muted); font-size: 13px; }
article { border: 1px solid var(--border); border-radius: 12px; padding: 12px 16px; margin: 0 0 14px; background: var(--bg); }
article.user { background: var(--card); }
article > h2 { margin: 0 0 6px; font-size: 13px; font-weight: 600; color: var(--muted); display: flex; gap: 8px; flex-wrap: wrap; }
article > h2 time { font-weight: 400; }
.body { overflow-wrap: anywhere; }
.body > :first-child { margin-top: 0; } .body > :last-child { margin-bottom: 0; }
pre { background: var(--code); border: 1px solid var(--border); border-radius: 8px; padding: 10px 12px; overflow-x: auto; font-size: 13px; line-height: 1.45; white-space: pre-wrap; word-break: break-word; }
code { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", Menlo, Consolas, monospace; font-size: 0.92em; }
:not(pre) > code { background: var(--code); border-radius: 4px; padding: 1px 4px; }
table { border-collapse: collapse; margin: 8px 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--border); padding: 4px 8px; text-align: left; }
blockquote { margin: 8px 0; padding: 0 12px; border-left: 3px solid var(--border); color: var(--muted); }
a { color: var(--accent); }
img { max-width: 100%; height: auto; border-radius: 8px; border: 1px solid var(--border); }
figure { margin: 10px 0 0; } figcaption { font-size: 12px; color: var(--muted); }
details { margin: 0 0 8px; font-size: 14px; } summary { cursor: pointer; color: var(--muted); }
details.thinking .body { border-left: 3px solid var(--border); padding-left: 10px; color: var(--muted); }
.status { color: var(--muted); font-style: italic; font-size: 13px; }
footer { color: var(--muted); font-size: 12px; text-align: center; margin-top: 32px; }
@media print { article { break-inside: avoid-page; } body { background: #fff; color: #000; } }
</style>
</head>
<body>
<main>
<header>
<h1>{{.Title}}</h1>
<p>Exported from Hermes · started {{.Started}} · {{.Count}} messages</p>
</header>
{{range .Messages}}<article class="{{.Role}}">
<h2><span>{{.Who}}</span><time>{{.When}}</time></h2>
{{if .Thinking}}<details class="thinking"><summary>Thinking</summary><div class="body">{{.Thinking}}</div></details>
{{end}}<div class="body">{{.Body}}</div>
{{range .Images}}<figure><img {{srcAttr .Src}} alt="{{.Name}}"{{if .Width}} width="{{.Width}}" height="{{.Height}}"{{end}}><figcaption>{{.Name}}</figcaption></figure>
{{end}}{{range .Files}}<details><summary>Attached: {{.Name}} ({{.Kind}}, {{.Tokens}} tokens)</summary><pre>{{.Text}}</pre></details>
{{end}}{{if .Status}}<p class="status">({{.Status}})</p>
{{end}}</article>
{{end}}<footer>Hermes · a private assistant that runs on this computer</footer>
</main>
</body>
</html>
`))
