package chatimport

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Open WebUI's chat export: an array of chats, each with its messages as a
// tree (chat.history.messages: id -> message with parentId, the branch on show
// ending at chat.history.currentId), or only as a list (chat.messages).
type owuiChat struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedAt stamp  `json:"created_at"`
	Chat      *struct {
		Title   string `json:"title"`
		History *struct {
			Messages  map[string]owuiMessage `json:"messages"`
			CurrentID string                 `json:"currentId"`
		} `json:"history"`
		Messages []owuiMessage `json:"messages"`
	} `json:"chat"`
}

type owuiMessage struct {
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Role      string  `json:"role"`
	Content   any     `json:"content"`
	Timestamp stamp   `json:"timestamp"`
	Files     []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"files"`
}

func decodeOpenWebUI(dec *json.Decoder) (*conversation, error) {
	var g owuiChat
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	if g.Chat == nil {
		return nil, fmt.Errorf(`%w: it has no "chat" (the messages)`, errShape)
	}
	if g.ID == "" {
		return nil, fmt.Errorf(`%w: it has no "id"`, errShape)
	}
	title := g.Title
	if title == "" {
		title = g.Chat.Title
	}
	c := &conversation{ref: "openwebui:" + g.ID, title: title, created: g.CreatedAt.Time}
	if h := g.Chat.History; h != nil && len(h.Messages) > 0 {
		c.current = h.CurrentID
		for key, m := range h.Messages {
			if m.ID == "" {
				m.ID = key
			}
			c.entries = append(c.entries, owuiEntry(m))
		}
		slices.SortFunc(c.entries, func(a, b entry) int { return strings.Compare(a.id, b.id) }) // a map has no order
		return c, nil
	}
	c.linear = true
	for i, m := range g.Chat.Messages {
		if m.ID == "" {
			m.ID = fmt.Sprintf("%d", i+1)
		}
		c.entries = append(c.entries, owuiEntry(m))
	}
	return c, nil
}

func owuiEntry(m owuiMessage) entry {
	e := entry{id: m.ID, at: m.Timestamp.Time}
	if m.ParentID != nil {
		e.parent = *m.ParentID
	}
	if m.Role == "user" || m.Role == "assistant" {
		e.role = m.Role
	}
	var b strings.Builder
	switch v := m.Content.(type) {
	case string:
		part(&b, v)
	case []any: // a list of parts, as the OpenAI API has them
		for _, p := range v {
			if o, ok := p.(map[string]any); ok {
				if s, ok := o["text"].(string); ok {
					part(&b, s)
				} else if o["type"] == "image_url" {
					part(&b, "[image]")
					e.images++
				}
			}
		}
	}
	for _, f := range m.Files {
		if f.Type == "image" {
			name := f.Name
			if name == "" {
				name = "attached"
			}
			part(&b, "[image: "+name+"]")
			e.images++
		} else if f.Name != "" {
			part(&b, "[file: "+f.Name+"]")
		}
	}
	e.text = b.String()
	e.skip = e.role == "" || strings.TrimSpace(e.text) == ""
	return e
}
