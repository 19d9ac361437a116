package chatimport

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ChatGPT's conversations.json: an array of conversations, each a tree of
// nodes (mapping: id -> node) whose branch on show ends at current_node. A
// node with several children holds versions: regenerated replies, or edited
// prompts.
type gptConversation struct {
	ID             string             `json:"id"`
	ConversationID string             `json:"conversation_id"`
	Title          string             `json:"title"`
	CreateTime     stamp              `json:"create_time"`
	Mapping        map[string]gptNode `json:"mapping"`
	CurrentNode    string             `json:"current_node"`
}

type gptNode struct {
	ID      string      `json:"id"`
	Message *gptMessage `json:"message"`
	Parent  *string     `json:"parent"`
}

type gptMessage struct {
	Author struct {
		Role string `json:"role"`
	} `json:"author"`
	CreateTime stamp `json:"create_time"`
	Content    struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
		Text        *string           `json:"text"`
	} `json:"content"`
	Recipient string `json:"recipient"`
	Metadata  struct {
		Hidden bool `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
}

func decodeChatGPT(dec *json.Decoder) (*conversation, error) {
	var g gptConversation
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	if g.Mapping == nil {
		return nil, fmt.Errorf(`%w: it has no "mapping" (the messages)`, errShape)
	}
	id := g.ConversationID
	if id == "" {
		id = g.ID
	}
	if id == "" {
		return nil, fmt.Errorf(`%w: it has no "conversation_id" or "id"`, errShape)
	}
	c := &conversation{ref: "chatgpt:" + id, title: g.Title, created: g.CreateTime.Time, current: g.CurrentNode,
		entries: make([]entry, 0, len(g.Mapping))}
	for key, n := range g.Mapping {
		e := entry{id: n.ID, skip: true}
		if e.id == "" {
			e.id = key
		}
		if n.Parent != nil {
			e.parent = *n.Parent
		}
		if m := n.Message; m != nil {
			e.at = m.CreateTime.Time
			e.role, e.text, e.images, e.skip = gptText(m)
		}
		c.entries = append(c.entries, e)
	}
	slices.SortFunc(c.entries, func(a, b entry) int { return strings.Compare(a.id, b.id) }) // a map has no order
	return c, nil
}

// gptText is what a message carries: its role and text, the images it refers
// to, or skip for what is not carried (system and hidden messages, tool calls
// and their results, reasoning, empty ones).
func gptText(m *gptMessage) (role, text string, images int, skip bool) {
	role = m.Author.Role
	if (role != "user" && role != "assistant") || m.Metadata.Hidden {
		return "", "", 0, true
	}
	if role == "assistant" && m.Recipient != "" && m.Recipient != "all" { // a call to a tool
		return "", "", 0, true
	}
	var b strings.Builder
	switch m.Content.ContentType {
	case "text", "multimodal_text", "":
		for _, raw := range m.Content.Parts {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				part(&b, s)
				continue
			}
			var p struct {
				ContentType  string `json:"content_type"`
				AssetPointer string `json:"asset_pointer"`
				Text         string `json:"text"`
			}
			if json.Unmarshal(raw, &p) != nil {
				continue
			}
			switch {
			case strings.HasPrefix(p.ContentType, "image"):
				part(&b, "[image: "+assetName(p.AssetPointer)+"]")
				images++
			case p.Text != "":
				part(&b, p.Text)
			case p.ContentType != "":
				part(&b, "["+p.ContentType+"]")
			}
		}
	case "code":
		if m.Content.Text != nil {
			part(&b, "```\n"+*m.Content.Text+"\n```")
		}
	default: // reasoning, browsing quotes, custom instructions …
		return "", "", 0, true
	}
	text = b.String()
	return role, text, images, strings.TrimSpace(text) == ""
}

// part adds a piece of a message's text.
func part(b *strings.Builder, s string) {
	s = strings.ReplaceAll(s, "\x00", "") // no message holds a NUL (session.ValidateText)
	if s == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	b.WriteString(s)
}

// assetName is an image's name in its pointer (file-service://file-…).
func assetName(p string) string {
	if _, after, ok := strings.Cut(p, "://"); ok {
		p = after
	}
	if p == "" {
		return "unnamed"
	}
	return p
}
