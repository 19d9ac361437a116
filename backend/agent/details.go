package agent

import (
	"encoding/json"
	"time"

	"hermes/backend/llm"
	"hermes/backend/prompt"
	"hermes/backend/session"
	"hermes/backend/tools"
)

// ToolDetails is what a stored tool message keeps of its call (session.Message.Details),
// so a reloaded conversation shows what the live one showed. Arguments are redacted
// as in the audit log.
type ToolDetails struct {
	session.Links        // the call's id, and the delegation it ran in
	Args          string `json:"args"`
	Status        string `json:"status"` // the exact outcome: ok, error, denied, blocked, timeout, cancelled
	ErrorKind     string `json:"errorKind,omitempty"`
	Error         string `json:"error,omitempty"`
	LatencyUs     int64  `json:"latencyUs"`
	Breaker       string `json:"breaker,omitempty"`
}

// ReplyDetails is what a stored reply keeps of its turn.
type ReplyDetails struct {
	Stop       *tools.StopReason `json:"stop,omitempty"`
	Unverified bool              `json:"unverified,omitempty"`
	Figures    *Figures          `json:"figures,omitempty"`
	Failure    *Failure          `json:"failure,omitempty"`
	// Sources are the passages of the user's documents the turn offered;
	// BadCitations the numbers the reply cites that none of them has.
	Sources      []Source `json:"sources,omitempty"`
	BadCitations []int    `json:"badCitations,omitempty"`
}

// Failure is why a reply failed, as the UI words it in the user's language: a
// stable code and the message's variable parts (the stored Error is the English).
type Failure struct {
	Code   string            `json:"code"`
	Params map[string]string `json:"params,omitempty"`
}

// Figures are a reply's numbers, from the server's counters and the turn's clock:
// the model, tokens in (the last request's prompt) and out (every round's),
// generation speed, time to the first token and to the end. The times leave
// out the time the user took to approve tool calls: they measure Hermes and
// the model, not the user.
type Figures struct {
	Model            string  `json:"model"`
	PromptTokens     int     `json:"promptTokens"`
	CompletionTokens int     `json:"completionTokens"`
	TokensPerSecond  float64 `json:"tokensPerSecond"`
	FirstTokenMs     int64   `json:"firstTokenMs"`
	TotalMs          int64   `json:"totalMs"`
	// ThinkingMs is the time the model spent thinking (from each round's first
	// reasoning piece to its first answer piece, or its end), ThinkingTokens the
	// reasoning pieces streamed (Ollama streams one token a piece); both 0 when
	// the model did not think. CompletionTokens include them.
	ThinkingMs     int64 `json:"thinkingMs,omitempty"`
	ThinkingTokens int   `json:"thinkingTokens,omitempty"`
	// ContextSize is the context the request asked for (num_ctx); ContextFull
	// says Ollama counted the whole of it, so it cut the start of the prompt
	// to fit (the estimate was short: see Agent.Calibration).
	ContextSize int  `json:"contextSize,omitempty"`
	ContextFull bool `json:"contextFull,omitempty"`
}

// FullContext reports whether a prompt counted as counted filled a context of
// size tokens: Ollama keeps at most that many and cuts the rest from the start.
func FullContext(counted, size int) bool { return size > 0 && counted >= size }

// figures measures the rounds of one reply.
type figures struct {
	start, first time.Time
	paused       time.Duration // waiting for the user's approvals
	pausedFirst  time.Duration // of it, before the first token
	f            Figures
	eval         time.Duration
	thinkFrom    time.Time // the open thinking stretch of this round (zero: none)
	thought      time.Duration
}

// delta notes one streamed piece: the first token (reasoning or answer) and the
// stretches of reasoning.
func (m *figures) delta(d llm.Delta) {
	now := time.Now()
	if m.first.IsZero() {
		m.first = now
	}
	if d.Thinking != "" {
		m.f.ThinkingTokens++
		if m.thinkFrom.IsZero() {
			m.thinkFrom = now
		}
	}
	if d.Content != "" {
		m.endThought(now)
	}
}

func (m *figures) endThought(now time.Time) {
	if !m.thinkFrom.IsZero() {
		m.thought += now.Sub(m.thinkFrom)
		m.thinkFrom = time.Time{}
	}
}

func (m *figures) round(r llm.Reply) {
	m.endThought(time.Now())
	if r.Model != "" {
		m.f.Model = r.Model
	}
	if r.PromptTokens > 0 {
		m.f.PromptTokens = r.PromptTokens
	}
	m.f.CompletionTokens += r.CompletionTokens
	m.eval += r.EvalDuration
}

// pause notes d spent waiting for the user (a tool call's approval).
func (m *figures) pause(d time.Duration) {
	m.paused += d
	if m.first.IsZero() {
		m.pausedFirst += d
	}
}

func (m *figures) done() *Figures {
	f := m.f
	f.TotalMs = (time.Since(m.start) - m.paused).Milliseconds()
	f.ThinkingMs = m.thought.Milliseconds()
	if !m.first.IsZero() {
		f.FirstTokenMs = (m.first.Sub(m.start) - m.pausedFirst).Milliseconds()
	}
	if m.eval > 0 {
		f.TokensPerSecond = float64(f.CompletionTokens) / m.eval.Seconds()
	}
	return &f
}

// ContextRecipe records a turn's prompt without its text: each item names where its
// text came from (a message, the query, a recalled memory's rank), so the context
// inspector can show it again after a restart and no copy of a memory outlives a
// forget.
type ContextRecipe struct {
	Tokens  int          `json:"tokens"`
	Budget  int          `json:"budget"`
	Dropped int          `json:"dropped"`
	Plan    RecipePlan   `json:"plan"`
	Items   []RecipeItem `json:"items"`
	// QueryID is the user's message the turn answered.
	QueryID string `json:"queryId,omitempty"`
	// SummaryUpto is the last message the session's summary covered then (a summary
	// that has moved on since is not what the model saw).
	SummaryUpto int `json:"summaryUpto,omitempty"`
	// RecalledAt is when the memories were recalled: the recall log keeps one batch per
	// recall, and a continued turn recalls again for the same message.
	RecalledAt time.Time `json:"recalledAt,omitzero"`
	// Settings are the chat settings in force (the chat's own system prompt, model,
	// temperature, context size); nil in recipes stored before they existed.
	Settings *TurnSettings `json:"settings,omitempty"`
}

// RecipePlan is the turn's routing decision.
type RecipePlan struct {
	Intent         string  `json:"intent"`
	Confidence     float32 `json:"confidence"`
	Recall         bool    `json:"recall,omitempty"`
	RecallK        int     `json:"recallK,omitempty"`
	MayWriteMemory bool    `json:"mayWriteMemory,omitempty"`
	ToolGroup      string  `json:"toolGroup,omitempty"`
}

// RecipeItem is one prompt item: its reason, role and size, and where its text is.
type RecipeItem struct {
	Reason    string `json:"reason"`
	Role      string `json:"role"`
	Tokens    int    `json:"tokens"`
	MessageID string `json:"messageId,omitempty"`
	// MemoryRank is a memory item's rank among the memories recalled for the query
	// (1-based; the memory log keeps them by rank).
	MemoryRank int `json:"memoryRank,omitempty"`
	// Tool names a tool-schema item's tool.
	Tool      string `json:"tool,omitempty"`
	Shortened bool   `json:"shortened,omitempty"`
	// Document and Part name a document item's document (its id) and chunk (0: whole).
	Document string `json:"document,omitempty"`
	Part     int    `json:"part,omitempty"`
}

// recipe is res's prompt as a ContextRecipe (nil when no prompt was built).
func recipe(res Result, summaryUpto int, recalledAt time.Time) *ContextRecipe {
	c := res.Context
	if len(c.Items) == 0 {
		return nil
	}
	p := res.Plan
	r := &ContextRecipe{Tokens: c.Tokens, Budget: c.Budget, Dropped: c.Dropped, QueryID: res.User.ID, Items: make([]RecipeItem, 0, len(c.Items)),
		SummaryUpto: summaryUpto, RecalledAt: recalledAt, Settings: &res.Settings,
		Plan: RecipePlan{Intent: p.Intent, Confidence: p.Confidence, Recall: p.Recall, RecallK: p.RecallK, MayWriteMemory: p.MayWriteMemory, ToolGroup: string(p.ToolGroup)}}
	for _, it := range c.Items {
		ri := RecipeItem{Reason: string(it.Reason), Role: it.Role, Tokens: it.Tokens, MessageID: it.MessageID, Shortened: it.Shortened}
		switch it.Reason {
		case prompt.ReasonMemory:
			for i, m := range res.Recalled {
				if it.Content == prompt.MemoryItem(m) {
					ri.MemoryRank = i + 1
					break
				}
			}
		case prompt.ReasonDocument:
			ri.Document, ri.Part = it.Ref, it.Seq
		case prompt.ReasonTool:
			var schema struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			}
			if json.Unmarshal([]byte(it.Content), &schema) == nil {
				ri.Tool = schema.Function.Name
			}
		}
		r.Items = append(r.Items, ri)
	}
	return r
}

// ToolMessage is a tool call's outcome as the conversation stores it (delegation:
// the sub-agent's call it ran for, "" in the main channel).
func ToolMessage(o tools.Outcome, delegation string) session.Message {
	return session.Message{Role: "tool", Content: storedContent(o), ToolName: o.Tool, Status: toolStatus(o), Details: toolDetails(o, delegation)}
}

func toolDetails(o tools.Outcome, delegation string) string {
	args, errText := o.StoredArgs, o.StoredError // as the audit log keeps them
	if args == "" {
		args, errText = tools.RedactArgs(o.Args), o.Error
	}
	return encodeDetails(ToolDetails{Links: session.Links{CallID: o.CallID, Delegation: delegation}, Args: args, Status: string(o.Status),
		ErrorKind: o.ErrorKind, Error: errText, LatencyUs: o.Latency.Microseconds(), Breaker: o.Breaker})
}

func replyDetails(res Result, f *Figures, why *Failure) string {
	if res.Stop == nil && !res.Unverified && f == nil && why == nil && len(res.Sources) == 0 && len(res.BadCitations) == 0 {
		return ""
	}
	return encodeDetails(ReplyDetails{Stop: res.Stop, Unverified: res.Unverified, Figures: f, Failure: why,
		Sources: res.Sources, BadCitations: res.BadCitations})
}

// contextRecipe is what session.Message.Context stores for a reply ("" without a prompt).
func contextRecipe(res Result, summaryUpto int, recalledAt time.Time) string {
	r := recipe(res, summaryUpto, recalledAt)
	if r == nil {
		return ""
	}
	return encodeDetails(r)
}

// ParseContextRecipe reads a stored recipe; nil when there is none.
func ParseContextRecipe(s string) *ContextRecipe {
	var r ContextRecipe
	if s == "" || json.Unmarshal([]byte(s), &r) != nil {
		return nil
	}
	return &r
}

func encodeDetails(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// ParseToolDetails reads a tool message's details; ok is false when there are none
// (a message stored before they were kept, or imported).
func ParseToolDetails(details string) (d ToolDetails, ok bool) {
	if details == "" || json.Unmarshal([]byte(details), &d) != nil || d.Status == "" {
		return ToolDetails{}, false
	}
	return d, true
}

// ParseReplyDetails reads a reply's details (zero when there are none).
func ParseReplyDetails(details string) ReplyDetails {
	var d ReplyDetails
	if details != "" {
		_ = json.Unmarshal([]byte(details), &d)
	}
	return d
}
