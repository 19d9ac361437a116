package chatimport

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// Claude's conversations.json: an array of conversations, each with its
// messages in order (chat_messages); a message's parent_message_uuid, where
// the file has one, says which it follows, so edits and retries are versions.
type claudeConversation struct {
	UUID        string          `json:"uuid"`
	Name        string          `json:"name"`
	CreatedAt   stamp           `json:"created_at"`
	Messages    []claudeMessage `json:"chat_messages"`
	CurrentLeaf string          `json:"current_leaf_message_uuid"`
}

type claudeMessage struct {
	UUID    string `json:"uuid"`
	Sender  string `json:"sender"`
	Text    string `json:"text"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	CreatedAt   stamp   `json:"created_at"`
	Parent      *string `json:"parent_message_uuid"`
	Attachments []struct {
		FileName string `json:"file_name"`
	} `json:"attachments"`
	Files []struct {
		FileName string `json:"file_name"`
		FileKind string `json:"file_kind"`
	} `json:"files"`
}

func decodeClaude(dec *json.Decoder) (*conversation, error) {
	var g claudeConversation
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	if g.UUID == "" {
		return nil, fmt.Errorf(`%w: it has no "uuid"`, errShape)
	}
	c := &conversation{ref: "claude:" + g.UUID, title: g.Name, created: g.CreatedAt.Time, current: g.CurrentLeaf, linear: true,
		entries: make([]entry, 0, len(g.Messages))}
	for _, m := range g.Messages {
		e := entry{id: m.UUID, at: m.CreatedAt.Time}
		if m.Parent != nil {
			e.parent = *m.Parent
			c.linear = false
		}
		switch m.Sender {
		case "human":
			e.role = "user"
		case "assistant":
			e.role = "assistant"
		}
		e.text, e.images = claudeText(m)
		e.skip = e.role == "" || strings.TrimSpace(e.text) == ""
		c.entries = append(c.entries, e)
	}
	if c.current == "" && !c.linear && len(c.entries) > 0 {
		c.current = c.entries[len(c.entries)-1].id // the last message ends the branch on show
	}
	return c, nil
}

// claudeText is a message's text (its text blocks, else its text field) with a
// line for each file it had; images among them are counted.
func claudeText(m claudeMessage) (string, int) {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == "text" {
			part(&b, c.Text)
		}
	}
	if b.Len() == 0 {
		part(&b, m.Text)
	}
	images := 0
	for _, a := range m.Attachments {
		part(&b, "[attachment: "+a.FileName+"]")
	}
	for _, f := range m.Files {
		if f.FileKind == "image" || isImageName(f.FileName) {
			part(&b, "[image: "+f.FileName+"]")
			images++
		} else {
			part(&b, "[file: "+f.FileName+"]")
		}
	}
	return b.String(), images
}

func isImageName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".heic", ".bmp":
		return true
	}
	return false
}
