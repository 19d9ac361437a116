// Package memtool offers Hermes' memory to the model as tools: memory_search
// (read-only), memory_save (through the memory's write gate) and memory_forget
// (destructive, so the user always approves it).
package memtool

import (
	"context"
	"encoding/json"
	"fmt"

	"hermes/backend/memory"
	"hermes/backend/memory/decay"
	"hermes/backend/tools"
)

// Memory is what the tools use; *memory.Store satisfies it.
type Memory interface {
	Search(ctx context.Context, profile, query string, k int) ([]memory.Hit, error)
	SaveFromTool(ctx context.Context, in memory.ToolSave) (memory.Memory, memory.Decision, error)
	Forget(ctx context.Context, ids ...string) (memory.Receipt, error)
}

// Scope is the turn a tool call belongs to.
type Scope struct {
	Profile        string
	SessionID      string
	MessageID      string // the user's message of the turn
	UserText       string
	Intent         string
	MayWriteMemory bool
	Incognito      bool
}

type scopeKey struct{}

// WithScope returns ctx carrying the turn's scope for the memory tools.
func WithScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeFrom returns the scope WithScope put in ctx.
func ScopeFrom(ctx context.Context) (Scope, bool) {
	s, ok := ctx.Value(scopeKey{}).(Scope)
	return s, ok
}

// Options tune the tools.
type Options struct {
	// Scope finds the turn of a call; nil uses ScopeFrom. Without a scope, search
	// uses the default profile and save refuses.
	Scope func(ctx context.Context) (Scope, bool)
}

// New returns the three memory tools.
func New(m Memory, opt Options) []tools.Tool {
	if opt.Scope == nil {
		opt.Scope = ScopeFrom
	}
	return []tools.Tool{search(m, opt), save(m, opt), forget(m)}
}

// Register adds the tools to reg: search in the memory and read-only groups, save
// and forget in the memory group.
func Register(reg *tools.Registry, m Memory, opt Options) error {
	for _, t := range New(m, opt) {
		groups := []string{tools.GroupMemory}
		if t.Annotations().ReadOnly {
			groups = append(groups, tools.GroupReadOnly)
		}
		if err := reg.Register(t, tools.WithGroups(groups...), tools.WithOwnSchemas()); err != nil {
			return fmt.Errorf("register memory tools: %w", err)
		}
	}
	return nil
}

// withoutText is a search result as the conversation keeps it: the ids and dates of
// the memories found, not their text (which a forget must be able to erase).
func withoutText(result json.RawMessage) json.RawMessage {
	var out struct {
		Memories []found `json:"memories"`
		Note     string  `json:"note,omitempty"`
	}
	if json.Unmarshal(result, &out) != nil {
		return json.RawMessage(`{"memories":[]}`)
	}
	for i := range out.Memories {
		out.Memories[i].Text = "(not kept in the conversation; search again for the text)"
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage(`{"memories":[]}`)
	}
	return b
}

type found struct {
	ID    string  `json:"id"`
	Text  string  `json:"text"`
	Since string  `json:"since"`
	Score float64 `json:"score"`
}

func search(m Memory, opt Options) tools.Tool {
	return &tools.Func{
		Private:  true, // memory text must stay erasable: no copy in the audit log or the stored conversation
		Stored:   withoutText,
		ToolName: "memory_search",
		ToolDescription: "Search what you remember about the user (facts and preferences they told you), best match first. " +
			"Use it before answering questions about the user, and to find the ids of memories to forget.",
		Params: json.RawMessage(`{"type":"object","properties":{
			"query":{"type":"string","minLength":1,"maxLength":500,"description":"what to look for"},
			"limit":{"type":"integer","minimum":1,"maximum":20,"description":"how many memories to return (default 5)"}},
			"required":["query"],"additionalProperties":false}`),
		Annots: tools.Annotations{ReadOnly: true},
		Fn: func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var in struct {
				Query string `json:"query"`
				Limit int    `json:"limit"`
			}
			if err := tools.ReadArgs("search memories", args, &in); err != nil {
				return nil, err
			}
			sc, _ := opt.Scope(ctx)
			out := struct {
				Memories []found `json:"memories"`
				Note     string  `json:"note,omitempty"`
			}{Memories: []found{}}
			if sc.Incognito {
				out.Note = "this chat is incognito: memory is not used"
				return tools.JSONResult("search memories", out)
			}
			if in.Limit == 0 {
				in.Limit = 5
			}
			hits, err := m.Search(ctx, sc.Profile, in.Query, in.Limit)
			if err != nil {
				return nil, fmt.Errorf("search memories: %w", err) // not the query: it may quote a memory
			}
			for _, h := range hits {
				out.Memories = append(out.Memories, found{ID: h.MemoryID, Text: h.Text, Since: h.Memory.CreatedAt.Format("2006-01-02"), Score: h.Score})
			}
			return tools.JSONResult("search memories", out)
		},
	}
}

func save(m Memory, opt Options) tools.Tool {
	return &tools.Func{
		Private:  true, // memory text must stay erasable: no copy in the audit log or the stored conversation
		ToolName: "memory_save",
		ToolDescription: "Remember a fact about the user for later conversations, when the user asks you to remember it or states an important fact about themselves. " +
			"Write the fact as one short sentence in the user's words. It may wait for the user's approval.",
		Params: json.RawMessage(`{"type":"object","properties":{
			"text":{"type":"string","minLength":1,"maxLength":300,"description":"the fact, e.g. \"I am allergic to peanuts\""},
			"key":{"type":"string","maxLength":64,"description":"attribute name in lower-case English with dots, e.g. allergy.peanuts"},
			"category":{"type":"string","enum":` + decay.CategoryEnum() + `}},
			"required":["text"],"additionalProperties":false}`),
		Annots: tools.Annotations{},
		Fn: func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var in struct {
				Text     string `json:"text"`
				Key      string `json:"key"`
				Category string `json:"category"`
			}
			if err := tools.ReadArgs("save memory", args, &in); err != nil {
				return nil, err
			}
			type result struct {
				Saved  bool   `json:"saved"`
				ID     string `json:"id,omitempty"`
				Status string `json:"status,omitempty"`
				Reason string `json:"reason,omitempty"`
			}
			sc, ok := opt.Scope(ctx)
			if !ok {
				return tools.JSONResult("save memory", result{Reason: "memory cannot be written outside a conversation turn"})
			}
			mem, d, err := m.SaveFromTool(ctx, memory.ToolSave{
				Turn: memory.Turn{Profile: sc.Profile, SessionID: sc.SessionID, UserMessageID: sc.MessageID, UserText: sc.UserText,
					Intent: sc.Intent, MayWriteMemory: sc.MayWriteMemory, Incognito: sc.Incognito},
				Text: in.Text, Key: in.Key, Category: in.Category})
			if err != nil {
				return nil, err
			}
			if !d.Allowed {
				return tools.JSONResult("save memory", result{Reason: "not saved: " + d.Reason})
			}
			r := result{Saved: true, ID: mem.ID, Status: string(mem.Status)}
			if mem.Status == memory.StatusPending {
				r.Reason = "waits for the user's approval: " + mem.Note
			}
			return tools.JSONResult("save memory", r)
		},
	}
}

func forget(m Memory) tools.Tool {
	return &tools.Func{
		ToolName: "memory_forget", // its arguments are ids, kept in the audit log
		ToolDescription: "Erase memories about the user for good, by id (find ids with memory_search first). " +
			"The user is always asked to approve; the result is a receipt.",
		Params: json.RawMessage(`{"type":"object","properties":{
			"ids":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"string","minLength":1,"maxLength":200},"description":"ids of the memories to erase"}},
			"required":["ids"],"additionalProperties":false}`),
		Annots: tools.Annotations{Destructive: true},
		Fn: func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			var in struct {
				IDs []string `json:"ids"`
			}
			if err := tools.ReadArgs("forget memories", args, &in); err != nil {
				return nil, err
			}
			r, err := m.Forget(ctx, in.IDs...)
			if err != nil {
				return nil, fmt.Errorf("forget memories: %w", err)
			}
			return tools.JSONResult("forget memories", r)
		},
	}
}
