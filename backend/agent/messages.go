package agent

import (
	"encoding/json"

	"github.com/ollama/ollama/api"

	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/tools"
)

// ChatMessages are a built context as the model's chat messages (the tool
// schemas it counted travel in the request's tools field instead; an image
// document's bytes in its message's Images).
func ChatMessages(c prompt.Context) []llm.Message {
	out := make([]llm.Message, 0, len(c.Items))
	for _, it := range c.Items {
		if it.Reason == prompt.ReasonTool {
			continue
		}
		out = append(out, llm.Message{Role: it.Role, Content: it.Content, Images: it.Images})
	}
	return out
}

// SchemaTexts are the tools' schemas as the prompt builder counts them.
func SchemaTexts(tools api.Tools) []string {
	out := make([]string, 0, len(tools))
	for _, t := range tools {
		b, _ := json.Marshal(t)
		out = append(out, string(b))
	}
	return out
}

// Fitted keeps the tools whose schema fitted in the context: a tool the budget
// left out is not offered (the model could not have read it).
func Fitted(tools api.Tools, texts []string, c prompt.Context) api.Tools {
	in := map[string]bool{}
	for _, it := range c.Items {
		if it.Reason == prompt.ReasonTool {
			in[it.Content] = true
		}
	}
	out := make(api.Tools, 0, len(tools))
	for i, t := range tools {
		if in[texts[i]] {
			out = append(out, t)
		}
	}
	return out
}

// ToolResultMessage is a tool call's outcome as the model reads it: fenced data
// (docs/architecture.md, "Untrusted input").
func ToolResultMessage(o tools.Outcome) llm.Message {
	m := o.Message()
	m.Content = prompt.ToolResult(o.Tool, m.Content)
	return m
}
